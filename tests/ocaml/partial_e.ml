(* expect: bug within 2 *)
(* A chain of partial applications; the assertion forgets that `scale` multiplies. *)
(* run: n=3 depth=2 => failure at 12:3 (assert) *)
(* run: n=2 depth=2 => value skip *)
(* run: n=3 depth=1 => cut off at depth 1, call at 10:15 *)
let affine a b x = a * x + b
let apply f x = f x

let main n =
  let scale = affine n in
  let shift = scale 0 in
  assert (apply shift 2 + apply (affine 1 1) 0 <= n + 3)
