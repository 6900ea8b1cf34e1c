(* expect: safe up to 6 *)
(* A local `let rec` with an accumulator. *)
(* run: n=3 depth=4 => value skip *)
let main n =
  let rec loop i acc = if i <= 0 then acc else loop (i - 1) (acc + i) in
  assert (loop n 0 >= 0)
