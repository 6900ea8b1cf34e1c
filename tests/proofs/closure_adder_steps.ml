(* expect: verified *)
(* Fresh set (28 Nov), iterating a partially applied adder: a helper `times` iterates a
   function with a counter until it reaches n, on the adder `( + ) step` built once;
   the result never falls below the start for a non-negative step, and is exactly
   start + 2 n for the step 2.
   VERIFIED in under 1 s on a quiet machine (30 Nov; the header said "not proved yet"
   since the 28 Nov set, and was stale). *)
let times n f x =
  let rec loop i acc = if i >= n then acc else loop (i + 1) (f acc) in
  loop 0 x

let main n step start =
  let bump = ( + ) step in
  let r = times n bump start in
  if step >= 0 then assert (r >= start);
  let two = times n (( + ) 2) start in
  assert (n < 0 || two = start + (2 * n))
