(* expect: safe up to 8 *)
(* Landin's knot through a local reference, with a step counter in a second cell: more
   than `limit` steps raise `Too_deep`, caught by the caller. *)
(* run: n=2 depth=4 => value 3 *)
(* run: n=3 depth=5 => value -1 *)
exception Too_deep

let make limit =
  let self = ref (fun n -> 0) in
  let steps = ref 0 in
  self := (fun n -> incr steps; if !steps > limit then raise Too_deep else if n <= 0 then 0 else n + !self (n - 1));
  (self, steps)

let main n =
  let (f, steps) = make 3 in
  let v = try !f n with Too_deep -> -1 in
  assert (v <= 3 && !steps <= 4);
  assert (v >= 0 || !steps = 4);
  v
