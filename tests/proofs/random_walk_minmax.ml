(* expect: verified *)
(* Fresh set (28 Nov), a random walk between the lowest and highest positions seen: a
   recursion returning a triple, the step chosen by Random.bool, the bounds kept with
   the prelude's min and max; the distance from the start is at most the number of
   steps. *)
let rec walk k pos lo hi =
  if k = 0 then (pos, lo, hi)
  else
    let pos' = if Random.bool () then pos + 1 else pos - 1 in
    walk (k - 1) pos' (min lo pos') (max hi pos')

let main start k =
  if k >= 0 then begin
    let (pos, lo, hi) = walk k start start start in
    assert (lo <= pos && pos <= hi);
    assert (hi - lo <= k)
  end
