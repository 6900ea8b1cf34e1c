(* expect: safe *)
(* Fresh set (29 Nov), an index search raising `Found i` over the list 0, 3, 6, ...; the
   index is in range and the element there is 3 * i. Not proved yet: the element at a
   position is no fact of the list measures (the bound on the index alone is proved). *)
exception Found of int
let index_of x l =
  let rec go i l = match l with [] -> () | y :: r -> if y = x then raise (Found i) else go (i + 1) r in
  try go 0 l; -1 with Found i -> i
let main n x =
  let l = List.init (max n 0) (fun i -> 3 * i) in
  let i = index_of x l in
  assert (i < List.length l);
  if i >= 0 then assert (x = 3 * i)
