(* expect: bug within 3 *)
(* closure_pipeline.ml composing in the wrong order: the composition applies the last step first. *)
let add a b = a + b

let scale k x = k * x

let apply_all fs x = List.fold_left (fun acc f -> f acc) x fs

let compose_all fs = List.fold_right (fun f acc -> let g x = f (acc x) in g) fs (fun x -> x)

let main k x =
  let steps = [ add 1; scale 2; (fun y -> y - k) ] in
  let in_turn = apply_all steps x in
  let composed = compose_all steps in
  assert (in_turn = composed x);
  assert (in_turn = (2 * (x + 1)) - k)
