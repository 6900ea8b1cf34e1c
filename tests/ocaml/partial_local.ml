(* expect: safe up to 6 *)
(* A local function partially applied inside a recursive function: `step k` captures k. *)
(* run: n=2 depth=3 => value skip *)
(* run: n=2 depth=2 => cut off at depth 2, call at 8:32 *)
let main n =
  let rec iter f k x = if k <= 0 then x else iter f (k - 1) (f x) in
  let step k x = x + k in
  if n >= 0 then assert (iter (step 2) n 0 = 2 * n)
