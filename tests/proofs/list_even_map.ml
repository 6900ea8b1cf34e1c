(* expect: verified *)
(* Fresh set (28 Nov), "every element has the input's parity": a list of the input's
   parity (every element is p plus an even number), mapped by a helper that adds
   twice its argument, filtered by a predicate; every element of the result has p's
   parity, told by a recursive check returning a bool.
   Proved since 29 Nov case by case, for each class of p (negative or not, even or odd:
   `vc::horn_input_split`), in about 20 s; as a whole, Spacer finds no proof in a minute. *)
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
  let doubled = my_map (fun x -> x + (2 * x)) l in
  let positive = my_filter (fun x -> x > 0) doubled in
  assert (all_like p positive)
