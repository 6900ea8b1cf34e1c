(* expect: bug within 1 *)
(* A handler clamps an out-of-range value to the value itself instead of the bound. *)
(* run: n=12 depth=30 => failure at 38:3 (assert) *)
(* run: n=-4 depth=30 => value skip *)
(* run: n=7 depth=30 => value skip *)
type item = Book of int | Pen | Bundle of item list

type order = { qty : int; price : int }

exception Out_of_range of int * int
exception Bad_item of item
exception Rejected of order
exception Lookup of int option
exception Conflict of (int * bool) list

let check_range lo hi x = if x < lo || x > hi then raise (Out_of_range (x, hi)) else x

let rec cost it =
  match it with
  | Book p -> if p < 0 then raise (Bad_item it) else p
  | Pen -> 1
  | Bundle [] -> raise (Bad_item (Bundle []))
  | Bundle items -> List.fold_left (fun acc i -> acc + cost i) 0 items

let place o = if o.qty <= 0 then raise (Rejected o) else o.qty * o.price

let find k table =
  match List.assoc_opt k table with
  | Some v -> v
  | None -> raise (Lookup (if k > 0 then Some k else None))

let main n =
  let clamped =
    try check_range 0 10 n with
    | Out_of_range (x, hi) when x > hi -> x
    | Out_of_range (_, _) -> 0
  in
  assert (0 <= clamped && clamped <= 10);
  let c = try cost (Bundle [ Book n; Pen ]) with Bad_item (Book p) -> -p | Bad_item _ -> 0 in
  assert (c >= 1);
  let t = try place { qty = n; price = 3 } with Rejected { qty; _ } -> qty - 1 in
  assert (t <> 0);
  let v = try find n [ (1, 10); (2, 20) ] with Lookup (Some k) -> k | Lookup None -> -1 in
  assert (v > 0 || (v = -1 && n <= 0));
  let w =
    try if n > 5 then raise (Conflict [ (n, true); (0, false) ]) else n with
    | Conflict ((k, true) :: _) -> k - 5
    | Conflict _ -> 0
  in
  assert (w <= n)
