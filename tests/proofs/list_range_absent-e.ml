(* expect: bug *)
(* The twin of list_range_absent.ml whose claim about a key not found is off by one: a key
   just past the range is not found, and not past `hi + 1`. *)
exception Found of int

let rec search key i l =
  match l with
  | [] -> ()
  | x :: rest -> if x = key then raise (Found i) else search key (i + 1) rest

let index_of key l = try search key 0 l; -1 with Found i -> i

let rec upto lo hi = if lo > hi then [] else lo :: upto (lo + 1) hi

let main lo hi key =
  let i = index_of key (upto lo hi) in
  if i >= 0 then assert (lo + i = key && key <= hi)
  else assert (key < lo || key > hi + 1)
