(* expect: safe *)
(* Fresh set (28 Nov), iterating a partially applied adder: `repeat` applies a function
   n times with a `match` on n; applied to `add 5` from a start it adds 5 n, and a loop
   with a cell applying the same partial application agrees.
   Not proved yet: SAFE UP TO DEPTH 8 with the proof engines given 60 s. *)
let add k x = x + k

let rec repeat n f x = match n with 0 -> x | _ -> repeat (n - 1) f (f x)

let main n start =
  if n >= 0 then begin
    let plus5 = add 5 in
    let r = repeat n plus5 start in
    let c = ref start in
    for _ = 1 to n do
      c := plus5 !c
    done;
    assert (r = !c);
    assert (r = start + (5 * n))
  end
