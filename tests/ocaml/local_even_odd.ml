(* expect: safe up to 6 *)
(* Local mutual recursion: `even` and `odd` defined inside `main`, capturing `step`. *)
(* run: n=4 depth=5 => value skip *)
(* run: n=4 depth=4 => cut off at depth 4, call at 8:40 *)
let main n =
  let step = 1 in
  let rec even k = if k = 0 then true else odd (k - step)
  and odd k = if k = 0 then false else even (k - step) in
  if n >= 0 then assert (even n = (n mod 2 = 0))
