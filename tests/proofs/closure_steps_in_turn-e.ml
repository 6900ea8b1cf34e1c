(* expect: bug *)
(* Issue 33, the twin of closure_steps_in_turn.ml: the fold applies each step twice, so
   the two numbers differ once a step of d <> 0 is registered. *)
let main n d =
  let steps = ref [] in
  for _ = 1 to n do
    steps := (fun v -> v + d) :: !steps
  done;
  let x = ref 0 in
  List.iter (fun f -> x := f !x) !steps;
  let y = List.fold_left (fun acc f -> f (f acc)) 0 !steps in
  assert (!x = y)
