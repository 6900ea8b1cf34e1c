(* expect: verified *)
(* Fresh set (29 Nov), a for loop of random steps in -1..1 keeps the lowest and highest
   position seen around the current one. *)
let main n =
  let pos = ref 0 and lo = ref 0 and hi = ref 0 in
  for _ = 1 to n do
    pos := !pos + Random.int 3 - 1;
    if !pos < !lo then lo := !pos;
    if !pos > !hi then hi := !pos
  done;
  assert (!lo <= !pos && !pos <= !hi);
  assert (!lo <= 0 && 0 <= !hi)
