(* expect: bug within 3 *)
(* `apply` runs at depth 1, the `fun` at 2, `inc` at 3. *)
(* run: n=4 depth=3 => failure at 10:3 (assert) *)
(* run: n=4 depth=2 => cut off at depth 2, call at 9:27 *)
(* run: n=5 depth=3 => value skip *)
let apply f x = f x
let inc x = x + 1
let main n =
  let b = apply (fun g -> g n) inc in
  assert (b <> 5)
