(* expect: verified *)
(* Fresh set (28 Nov), iterating a partially applied adder: `repeat` applies a function
   n times with a `match` on n; applied to `add 5` from a start it adds 5 n, and a loop
   with a cell applying the same partial application agrees.
   Proved since 29 Nov: the adder's constant is read as 5 wherever the closure is used
   (`boogie_like::ir::constant_fields`), so the summaries are linear (x + 5 n). *)
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
