(* expect: verified *)
(* Records with type parameters (a stack of any element type, used at two types) and a
   record in a group with a variant that refers to it (issue 32, fresh set). *)
(* run: a=3 b=2 depth=12 => value skip *)
(* run: a=0 b=-1 depth=12 => value skip *)
type 'a stack = { mutable items : 'a list; mutable size : int }

type ('k, 'v) entry = { key : 'k; value : 'v }

type expr = Lit of int | Add of expr * expr | Block of block
and block = { body : expr; label : int }

exception Empty

let create () = { items = []; size = 0 }

let push s x =
  s.items <- x :: s.items;
  s.size <- s.size + 1

let pop s =
  match s.items with
  | [] -> raise Empty
  | x :: rest ->
    s.items <- rest;
    s.size <- s.size - 1;
    x

let rec eval = function
  | Lit n -> n
  | Add (a, b) -> eval a + eval b
  | Block { body; _ } -> eval body

let main a b =
  let ints = create () in
  let flags : bool stack = create () in
  push ints a;
  push ints b;
  push flags (a > b);
  assert (pop ints = b);
  assert (ints.size = 1 && flags.size = 1);
  let e = { key = a; value = pop flags } in
  assert (e.value = (a > b));
  assert (flags.size = 0);
  let blk = Block { body = Add (Lit a, Lit b); label = 1 } in
  assert (eval blk = a + b);
  match pop flags with
  | _ -> assert false
  | exception Empty -> assert (flags.items = [])
