(* expect: bug within 3 *)
(* list_even_map.ml adding the argument once, not twice: an odd p gives even elements. *)
let rec build p n = if n <= 0 then [] else (p + (2 * n)) :: build p (n - 1)

let rec my_map f = function [] -> [] | x :: xs -> let y = f x in y :: my_map f xs

let rec my_filter keep = function
  | [] -> []
  | x :: xs -> if keep x then x :: my_filter keep xs else my_filter keep xs

let same_parity a b = (a - b) mod 2 = 0

let rec all_like p l =
  match l with [] -> true | x :: xs -> if same_parity x p then all_like p xs else false

let main p n =
  let l = build p n in
  let doubled = my_map (fun x -> x + x) l in
  let positive = my_filter (fun x -> x > 0) doubled in
  assert (all_like p positive)
