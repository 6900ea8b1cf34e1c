(* expect: verified *)
(* Fresh set (29 Nov), `adder k` applied n times by a recursive apply_n grows its
   argument for k > 0. *)
let adder k x = x + k
let rec apply_n f n x = if n = 0 then x else apply_n f (n - 1) (f x)
let main n k x =
  if n >= 0 && k > 0 then begin
    let r = apply_n (adder k) n x in
    assert (r >= x);
    if n > 0 then assert (r > x)
  end
