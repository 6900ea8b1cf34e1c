(* expect: verified *)
(* A polymorphic binary tree with a generic fold; size, sum and depth are folds. *)
(* run: a=1 b=0 c=1 depth=30 => value skip *)
(* run: a=1 b=2 c=3 depth=30 => value skip *)
type 'a tree = Leaf | Node of 'a tree * 'a * 'a tree

let rec fold f acc = function
  | Leaf -> acc
  | Node (l, x, r) -> f (fold f acc l) x (fold f acc r)

let size t = fold (fun l _ r -> l + 1 + r) 0 t
let sum t = fold (fun l x r -> l + x + r) 0 t
let depth t = fold (fun l _ r -> 1 + max l r) 0 t

let rec insert x = function
  | Leaf -> Node (Leaf, x, Leaf)
  | Node (l, y, r) as t ->
    if x < y then Node (insert x l, y, r)
    else if x > y then Node (l, y, insert x r)
    else t

let rec to_list t = fold (fun l x r -> l @ [x] @ r) [] t

let of_list l = List.fold_left (fun t x -> insert x t) Leaf l

let main a b c =
  let t = of_list [a; b; c] in
  let n = size t in
  assert (n >= 1 && n <= 3);
  assert (depth t <= n);
  let l = to_list t in
  assert (List.length l = n);
  let distinct = if a = b then (if b = c then 1 else 2) else if a = c || b = c then 2 else 3 in
  assert (n = distinct);
  let s = t |> sum |> Fun.id in
  if n = 3 then assert (s = a + b + c)
