(* expect: bug within 3 *)
(* random_walk_minmax.ml keeping the lowest with max: a step down escapes it. *)
let rec walk k pos lo hi =
  if k = 0 then (pos, lo, hi)
  else
    let pos' = if Random.bool () then pos + 1 else pos - 1 in
    walk (k - 1) pos' (max lo pos') (max hi pos')

let main start k =
  if k >= 0 then begin
    let (pos, lo, hi) = walk k start start start in
    assert (lo <= pos && pos <= hi);
    assert (hi - lo <= k)
  end
