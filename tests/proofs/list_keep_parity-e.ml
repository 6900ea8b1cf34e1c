(* expect: bug within 3 *)
(* list_keep_parity.ml shifted by k instead of 2 k: an odd k makes the kept numbers even. *)
let odds n = List.init (max n 0) (fun i -> (2 * i) + 1)

let shift step l = List.fold_right (fun x acc -> (x + step) :: acc) l []

let rec keep_small bound l =
  match l with
  | [] -> []
  | x :: rest when x < bound -> x :: keep_small bound rest
  | _ :: rest -> keep_small bound rest

let main n k =
  let step = k in
  let kept = keep_small 20 (shift step (odds n)) in
  let ok = ref true in
  List.iter (fun x -> if x mod 2 = 0 then ok := false) kept;
  assert !ok
