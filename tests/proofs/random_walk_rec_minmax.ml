(* expect: verified *)
(* Fresh set (29 Nov), a recursive random walk returns its position with the lowest and
   highest positions seen, at most n apart. *)
let rec walk n pos lo hi =
  if n = 0 then (pos, lo, hi)
  else
    let pos' = if Random.bool () then pos + 1 else pos - 1 in
    walk (n - 1) pos' (min lo pos') (max hi pos')
let main n start =
  if n >= 0 then begin
    let (p, lo, hi) = walk n start start start in
    assert (lo <= p && p <= hi);
    assert (lo <= start && start <= hi);
    assert (hi - lo <= n)
  end
