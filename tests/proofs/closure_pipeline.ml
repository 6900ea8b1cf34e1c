(* expect: verified *)
(* Fresh set (28 Nov), a list of closures applied in turn vs composed: three steps
   (partial applications and a lambda over the input), applied in turn by a
   List.fold_left and composed into one function by a List.fold_right; both give the
   same number. *)
let add a b = a + b

let scale k x = k * x

let apply_all fs x = List.fold_left (fun acc f -> f acc) x fs

let compose_all fs = List.fold_right (fun f acc -> let g x = acc (f x) in g) fs (fun x -> x)

let main k x =
  let steps = [ add 1; scale 2; (fun y -> y - k) ] in
  let in_turn = apply_all steps x in
  let composed = compose_all steps in
  assert (in_turn = composed x);
  assert (in_turn = (2 * (x + 1)) - k)
