(* expect: safe up to 6 *)
(* run: n=101 depth=1 => value skip *)
(* run: n=99 depth=3 => value skip *)
(* run: n=99 depth=2 => cut off at depth 2, call at 7:14 *)
let rec mc91 x =
  if x > 100 then x - 10
  else mc91 (mc91 (x + 11))

let main n = if n <= 101 then assert (mc91 n = 91)
