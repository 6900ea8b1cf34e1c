(* expect: bug within 3 *)
(* random_walk.ml updating the highest position from the old one: a step up escapes it. *)
let rec walk steps pos lo hi =
  if steps <= 0 then (pos, lo, hi)
  else begin
    let p = pos + Random.int 3 - 1 in
    let lo' = if p < lo then p else lo in
    let hi' = if pos > hi then pos else hi in
    walk (steps - 1) p lo' hi'
  end

let main n start =
  let (p, lo, hi) = walk n start start start in
  assert (lo <= p && p <= hi)
