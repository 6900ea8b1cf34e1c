(* expect: bug within 1 *)
(* `min 0` is not a clamp from below: the assertion fails for positive n. *)
(* run: n=5 depth=1 => failure at 11:3 (assert) *)
(* run: n=-5 depth=1 => value skip *)
let add3 x y z = x + y + z

let main n =
  let f = add3 1 in
  let clamp = min 0 in
  assert (f 2 n = n + 3);
  assert (clamp n >= n)
