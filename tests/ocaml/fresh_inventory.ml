(* expect: verified *)
(* An inventory kept as an association list of records, restocked and sold from. *)
(* run: n=2 depth=30 => value skip *)
(* run: n=6 depth=30 => value skip *)
type item = { name_id : int; mutable qty : int; price : int }

exception Out_of_stock of int

let find_item inv id =
  match List.assoc_opt id inv with
  | Some it -> it
  | None -> raise Not_found

let add_item inv id ~qty ~price =
  if List.mem_assoc id inv then inv
  else (id, { name_id = id; qty; price }) :: inv

let sell inv id n =
  let it = find_item inv id in
  if it.qty < n then raise (Out_of_stock id);
  it.qty <- it.qty - n;
  n * it.price

let restock inv id n =
  let it = find_item inv id in
  it.qty <- it.qty + n

let total_value inv =
  List.fold_left (fun acc (_, it) -> acc + it.qty * it.price) 0 inv

let main n =
  let inv = [] in
  let inv = add_item inv 1 ~qty:5 ~price:3 in
  let inv = add_item inv 2 ~price:7 ~qty:2 in
  let inv = add_item inv 1 ~qty:100 ~price:100 in
  assert (List.length inv = 2);
  let before = total_value inv in
  let earned =
    try sell inv 1 n with Out_of_stock _ -> 0
  in
  if n >= 0 && n <= 5 then assert (earned = 3 * n);
  let after = total_value inv in
  if n >= 0 then assert (after + earned = before);
  assert ((find_item inv 1).qty >= 0);
  restock inv 2 3;
  assert ((find_item inv 2).qty = 5)
