(* expect: safe up to 8 *)
(* An inventory: items as records with a `mutable` stock, orders as a variant, a sale
   log in a weak top-level reference (`ref []`, its type fixed by the later uses),
   `Out_of_stock` and `invalid_arg` for bad orders, handled by `match ... with
   exception`. Stock never goes negative and the revenue is the sales'. *)
(* run: a=3 b=2 depth=12 => value 13 *)
(* run: a=1 b=2 depth=12 => value 2 *)
(* run: a=0 b=2 depth=12 => value 0 *)
type item = { id : int; mutable stock : int; price : int }

type order = Restock of int * int | Sell of int * int | Audit

exception Out_of_stock of int

let log = ref []

let find items id = List.find_opt (fun it -> it.id = id) items

let apply items order =
  match order with
  | Restock (id, n) ->
    if n <= 0 then invalid_arg "restock";
    (match find items id with Some it -> it.stock <- it.stock + n | None -> ())
  | Sell (id, n) ->
    if n <= 0 then invalid_arg "sell";
    (match find items id with
     | Some it ->
       if it.stock < n then raise (Out_of_stock id);
       it.stock <- it.stock - n;
       log := (id, n * it.price) :: !log
     | None -> raise Not_found)
  | Audit -> List.iter (fun it -> assert (it.stock >= 0)) items

let revenue () = List.fold_left (fun acc (_, r) -> acc + r) 0 !log

let main a b =
  let items = [ { id = 1; stock = 2; price = 3 }; { id = 2; stock = 0; price = 5 } ] in
  let orders = [ Restock (2, a); Sell (1, 1); Sell (2, b); Audit ] in
  match List.iter (apply items) orders with
  | () -> assert (revenue () = 3 + 5 * b); revenue ()
  | exception Out_of_stock id -> assert (id = 2 && a < b); id
  | exception Invalid_argument _ -> assert (a <= 0 || b <= 0); 0
