(* expect: verified *)
(* Issue 33, random inputs inside recursion: a walk of Random.int 3 - 1 steps that tracks
   the lowest and highest positions seen; the position stays between them. *)
let rec walk steps pos lo hi =
  if steps <= 0 then (pos, lo, hi)
  else begin
    let p = pos + Random.int 3 - 1 in
    let lo' = if p < lo then p else lo in
    let hi' = if p > hi then p else hi in
    walk (steps - 1) p lo' hi'
  end

let main n start =
  let (p, lo, hi) = walk n start start start in
  assert (lo <= p && p <= hi);
  assert (lo <= start && start <= hi);
  assert (hi - lo <= (if n > 0 then n else 0))
