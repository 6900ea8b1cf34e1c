(* expect: bug within 1 *)
(* A segment's length without `abs`: negative for a segment drawn leftwards. *)
(* run: n=-1 depth=30 => failure at 15:3 (assert) *)
(* run: n=2 depth=30 => value skip *)
type point = int * int

type 'a pair = 'a * 'a

type segment = point pair

let length ((x1, _), (x2, _) : segment) = x2 - x1

let main n =
  let s : segment = ((0, 0), (n, 1)) in
  assert (length s >= 0)
