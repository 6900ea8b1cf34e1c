(* expect: verified *)
(* Fresh set (29 Nov), a stack "object" as a tuple of closures over a depth and a push
   count, driven by Random.bool in a loop; the depth stays between 0 and the pushes. *)
let make_stack () =
  let depth = ref 0 in
  let pushes = ref 0 in
  let push () = depth := !depth + 1; pushes := !pushes + 1 in
  let pop () = if !depth > 0 then depth := !depth - 1 in
  let invariant () = assert (0 <= !depth && !depth <= !pushes) in
  (push, pop, invariant)
let main n =
  let (push, pop, inv) = make_stack () in
  for i = 1 to n do
    if Random.bool () then push () else pop ();
    inv ()
  done
