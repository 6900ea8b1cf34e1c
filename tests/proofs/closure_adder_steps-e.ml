(* expect: bug within 3 *)
(* closure_adder_steps.ml starting the counter at 1: one step short. *)
let times n f x =
  let rec loop i acc = if i >= n then acc else loop (i + 1) (f acc) in
  loop 1 x

let main n step start =
  let bump = ( + ) step in
  let r = times n bump start in
  if step >= 0 then assert (r >= start);
  let two = times n (( + ) 2) start in
  assert (n < 0 || two = start + (2 * n))
