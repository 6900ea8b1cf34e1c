(* expect: verified *)
(* Fresh set (29 Nov), a list of closures applied in turn two ways: a loop registers n steps
   `fun v -> v + d` in a cell; List.iter runs them on a counter cell and List.fold_left
   threads them through an accumulator; both give the same number. Each closure captures
   one integer, so its datatype is read as that integer (boogie_like::ir::unbox) and the
   list of steps is a list of integers, whose sum the clauses state. *)
let main n d =
  let steps = ref [] in
  for _ = 1 to n do
    steps := (fun v -> v + d) :: !steps
  done;
  let x = ref 0 in
  List.iter (fun f -> x := f !x) !steps;
  let y = List.fold_left (fun acc f -> f acc) 0 !steps in
  assert (!x = y)
