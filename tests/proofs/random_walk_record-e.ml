(* expect: bug within 3 *)
(* random_walk_record.ml updating the highest only when strictly above it by 2: a step up escapes it. *)
type walk = { mutable pos : int; mutable lo : int; mutable hi : int; mutable left : int }

let step w =
  let d = Random.int 3 - 1 in
  w.pos <- w.pos + d;
  if w.pos < w.lo then w.lo <- w.pos;
  if w.pos > w.hi + 1 then w.hi <- w.pos;
  w.left <- w.left - 1

let main start n =
  let w = { pos = start; lo = start; hi = start; left = n } in
  while w.left > 0 do
    step w;
    assert (w.lo <= w.pos && w.pos <= w.hi)
  done;
  assert (w.lo <= start && start <= w.hi)
