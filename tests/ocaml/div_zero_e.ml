(* expect: bug within 1 *)
(* The average of an empty range divides by zero: an uncaught Division_by_zero. *)
(* run: a=3 b=3 depth=1 => failure at 6:22 (Division_by_zero) *)
(* run: a=1 b=4 depth=1 => value skip *)
(* run: a=1 b=4 depth=0 => cut off at depth 0, call at 9:11 *)
let average lo hi = (lo + hi) / (hi - lo) * (hi - lo)

let main a b =
  let m = average a b in
  if a < b then assert (m <= a + b)
