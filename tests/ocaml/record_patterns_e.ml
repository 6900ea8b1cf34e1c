(* expect: bug within 1 *)
(* As record_patterns.ml, but the box asserted on has a height of 2, so its area is `2 * n`,
   not `n`, for every `n` but 0.
   Record patterns: `let { x; y } = p`, `{ balance = 0; _ }` and `{ id; balance }` in a
   `match` (a `mutable` field matched by its current content), records inside variant
   constructors matched with nested record patterns. *)
(* run: n=3 depth=4 => failure at 28:3 (assert) *)
(* run: n=0 depth=4 => value skip *)
type point = { x : int; y : int }
type account = { id : int; mutable balance : int }
type shape = Circle of point * int | Box of point * point

let area s = match s with
  | Circle ({ x = 0; y = 0 }, r) -> 3 * r * r
  | Circle (_, r) -> 3 * r * r + 1
  | Box ({ x = x1; y = y1 }, { x = x2; _ }) -> (x2 - x1) * y1

let main n =
  let p = { x = n; y = 2 } in
  let { x; y } = p in
  assert (x = n && y = 2);
  let a = { id = 1; balance = n } in
  a.balance <- a.balance + 1;
  (match a with
   | { balance = 0; _ } -> assert (n = -1)
   | { id; balance } -> assert (balance = n + 1 && id = 1));
  assert (area (Circle ({ x = 0; y = 0 }, n)) = 3 * n * n);
  assert (area (Box ({ x = 0; y = 2 }, { x = n; y = 5 })) = n)
