(* expect: bug within 1 *)
(* run: a=2 b=2 depth=1 => failure at 10:3 (assert) *)
(* run: a=0 b=2 depth=1 => value skip *)
let classify p = match p with
  | (0, _) -> 0
  | (x, y) when x > y -> 1
  | (_, _) -> 2
let main a b =
  let c = classify (a, b) in
  assert (c <> 2 || a < b)
