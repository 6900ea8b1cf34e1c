(* expect: bug within 4 *)
(* As variant_cells.ml, but the total is expected as if the first and the last counter
   were two cells: they are one, bumped twice, so `total l = 2 * n + 3` fails for every n. *)
(* run: n=2 depth=8 => failure at 28:3 (assert) *)
(* run: n=-2 depth=8 => failure at 28:3 (assert) *)
type counters = Nil | Cons of int ref * counters

type tree = Leaf | Node of tree * int array * tree

let rec bump l =
  match l with
  | Nil -> ()
  | Cons (c, rest) -> incr c; bump rest

let rec total l = match l with Nil -> 0 | Cons (c, rest) -> !c + total rest

let rec size t =
  match t with
  | Leaf -> 0
  | Node (l, a, r) -> a.(0) <- a.(0) + 1; 1 + size l + size r

let main n =
  let shared = ref n in
  let l = Cons (shared, Cons (ref 0, Cons (shared, Nil))) in
  bump l;
  assert (!shared = n + 2);
  assert (total l = 2 * n + 5);
  assert (total l = 2 * n + 3);
  let a = [| 0; n |] in
  let t = Node (Node (Leaf, a, Leaf), a, Leaf) in
  assert (size t = 2);
  assert (a.(0) = 2 && a.(1) = n)
