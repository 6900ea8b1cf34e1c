(* expect: bug within 2 *)
(* As variant_bst.ml, but `min_elt` looks into the right subtree of a node without a
   left one, so it finds the larger element when `a > b`.
   A recursive variant: a binary search tree with `insert`, `mem`, `size` and a `min_elt`
   returning an option, built from two inputs; `t <> Leaf` compares with a constant
   constructor. *)
(* run: a=3 b=1 depth=10 => failure at 35:16 (assert) *)
(* run: a=2 b=2 depth=10 => value 1 *)
type tree = Leaf | Node of tree * int * tree

let rec insert x t = match t with
  | Leaf -> Node (Leaf, x, Leaf)
  | Node (l, v, r) ->
    if x < v then Node (insert x l, v, r)
    else if x > v then Node (l, v, insert x r)
    else t

let rec mem x t = match t with
  | Leaf -> false
  | Node (l, v, r) -> if x = v then true else if x < v then mem x l else mem x r

let rec size t = match t with Leaf -> 0 | Node (l, _, r) -> size l + 1 + size r

let rec min_elt t = match t with
  | Leaf -> None
  | Node (Leaf, v, Leaf) -> Some v
  | Node (Leaf, _, r) -> min_elt r
  | Node (l, _, _) -> min_elt l

let main a b =
  let t = insert a (insert b Leaf) in
  assert (mem a t && mem b t);
  assert (t <> Leaf);
  (match min_elt t with
   | Some m -> assert (m = min a b)
   | None -> assert false);
  assert (mem (a + 1) t = (a + 1 = b));
  size t
