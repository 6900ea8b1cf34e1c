(* expect: bug within 5 *)
(* The minimum of a walk starts at 10 instead of a large value, so a list of large numbers
   reports 10 as its minimum. *)
(* run: n=20 depth=30 => failure at 13:3 (assert) *)
(* run: n=3 depth=30 => value skip *)
let walk l =
  List.fold_left (fun (pos, lo, hi) x -> (pos + 1, min lo x, max hi x)) (0, 10, -100) l

let pos, lo, hi = walk [ 3; 1; 4 ]

let main n =
  let count, low, high = walk [ n; n + 2 ] in
  assert (count = 2 && low = n && high = n + 2 && pos = 3 && lo = 1 && hi = 4)
