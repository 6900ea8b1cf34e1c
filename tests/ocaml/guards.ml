(* expect: verified *)
(* Nested tuple patterns with `when` guards. *)
(* run: a=3 b=1 depth=1 => value skip *)
let classify p = match p with
  | (0, _) -> 0
  | (x, y) when x > y -> 1
  | (_, _) -> 2
let main a b =
  let c = classify (a, b) in
  assert (c <> 1 || a > b)
