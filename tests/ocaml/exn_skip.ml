(* expect: verified *)
(* Once `step` raises, the rest of the `try` body is skipped: the `incr` and the
   assertion after the raising call never run, so the handler sees the count unchanged. *)
(* run: n=5 depth=3 => value skip *)
(* run: n=2 depth=3 => value skip *)
exception Stop of int

let count = ref 0

let step n = if n > 3 then raise (Stop n) else n

let run n =
  try
    let v = step n in
    incr count;
    assert (v <= 3);
    v + !count
  with Stop m -> m - !count

let main n =
  let r = run n in
  if n > 3 then assert (r = n) else assert (r = n + 1)
