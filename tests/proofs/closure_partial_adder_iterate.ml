(* expect: verified *)
(* Fresh set (29 Nov), a partially applied adder `add k` iterated n times from 0 stays
   non-negative for k >= 0. *)
let add a b = a + b
let rec iterate f n x = if n <= 0 then x else iterate f (n - 1) (f x)
let main n k =
  if k >= 0 then begin
    let step = add k in
    let r = iterate step n 0 in
    assert (r >= 0)
  end
