(* expect: safe *)
(* Fresh set (29 Nov), n closures `fun v -> v + 1` (List.init) applied in turn by
   List.fold_left and composed by List.fold_right agree. Not proved yet: the composition
   is a tree of closures of one datatype with three constructors. *)
let main n =
  let fs = List.init (max n 0) (fun _ -> fun v -> v + 1) in
  let applied = List.fold_left (fun acc f -> f acc) 0 fs in
  let composed = List.fold_right (fun f g -> fun v -> f (g v)) fs (fun v -> v) in
  assert (applied = composed 0);
  assert (applied >= 0)
