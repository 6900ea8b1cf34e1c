(* expect: bug within 2 *)
(* run: n=2 depth=2 => failure at 7:3 (assert) *)
(* run: n=3 depth=2 => value skip *)
let pair_apply (f, g) x = (f x, g x)
let main n =
  let (a, b) = pair_apply ((fun x -> x + 1), (fun x -> x - 1)) n in
  assert (a + b <> 4)
