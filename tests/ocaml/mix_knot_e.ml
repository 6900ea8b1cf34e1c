(* expect: bug within 3 *)
(* As mix_knot, but the sum is assumed never to reach 3: it does for n = 2, three calls
   deep. *)
(* run: n=2 depth=3 => failure at 17:3 (assert) *)
(* run: n=2 depth=2 => cut off at depth 2, call at 11:102 *)
exception Too_deep

let make limit =
  let self = ref (fun n -> 0) in
  let steps = ref 0 in
  self := (fun n -> incr steps; if !steps > limit then raise Too_deep else if n <= 0 then 0 else n + !self (n - 1));
  (self, steps)

let main n =
  let (f, steps) = make 3 in
  let v = try !f n with Too_deep -> -1 in
  assert (v <> 3);
  v
