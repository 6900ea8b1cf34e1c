(* expect: bug within 1 *)
(* run: n=7 depth=1 => failure at 6:3 (assert) *)
let swap (a, b) = (b, a)
let main n =
  let (x, y) = swap (n, true) in
  assert (not x)
