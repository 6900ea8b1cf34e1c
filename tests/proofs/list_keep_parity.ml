(* expect: verified *)
(* Fresh set (28 Nov), "every element has the input's parity": odd numbers built with
   List.init, shifted by an even step through List.fold_right and thinned with a
   hand-written filter written with `match ... when`; a loop with a flag checks that
   every element kept is still odd.
   VERIFIED (4-6 s on a quiet machine) through the measures-only clauses seeded with the
   relational facts Houdini proves inductive (`engine::proofs::seeded`): "the result of
   `fold_right` has the odd elements of its list and of its accumulator" holds because the
   step captured by the closure is even; Spacer alone did not find it in 60 s. *)
let odds n = List.init (max n 0) (fun i -> (2 * i) + 1)

let shift step l = List.fold_right (fun x acc -> (x + step) :: acc) l []

let rec keep_small bound l =
  match l with
  | [] -> []
  | x :: rest when x < bound -> x :: keep_small bound rest
  | _ :: rest -> keep_small bound rest

let main n k =
  let step = 2 * k in
  let kept = keep_small 20 (shift step (odds n)) in
  let ok = ref true in
  List.iter (fun x -> if x mod 2 = 0 then ok := false) kept;
  assert !ok
