(* expect: verified *)
(* Fresh set (28 Nov), a random walk between the lowest and highest positions seen: the
   state is a record with mutable fields, a while loop draws steps of -1, 0 or +1 with
   Random.int and updates the bounds with `if`s; the position stays between them.
   Proved (29 Nov) in Spacer's heap configuration (no weak abstraction of arrays), its
   quantified model re-checked clause by clause after quantifier elimination. *)
type walk = { mutable pos : int; mutable lo : int; mutable hi : int; mutable left : int }

let step w =
  let d = Random.int 3 - 1 in
  w.pos <- w.pos + d;
  if w.pos < w.lo then w.lo <- w.pos;
  if w.pos > w.hi then w.hi <- w.pos;
  w.left <- w.left - 1

let main start n =
  let w = { pos = start; lo = start; hi = start; left = n } in
  while w.left > 0 do
    step w;
    assert (w.lo <= w.pos && w.pos <= w.hi)
  done;
  assert (w.lo <= start && start <= w.hi)
