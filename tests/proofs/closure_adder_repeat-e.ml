(* expect: bug within 3 *)
(* closure_adder_repeat.ml with the loop applying the adder once more. *)
let add k x = x + k

let rec repeat n f x = match n with 0 -> x | _ -> repeat (n - 1) f (f x)

let main n start =
  if n >= 0 then begin
    let plus5 = add 5 in
    let r = repeat n plus5 start in
    let c = ref start in
    for _ = 0 to n do
      c := plus5 !c
    done;
    assert (r = !c);
    assert (r = start + (5 * n))
  end
