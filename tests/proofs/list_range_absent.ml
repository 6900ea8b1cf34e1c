(* expect: verified *)
(* A search through a range: `index_of` walks the list `lo, lo + 1, ..., hi` and raises
   `Found i` at the key's position. A key not found lies outside `lo .. hi`; a key found
   at `i` is `lo + i`. Both facts hold of the range's shape, not of any bound on its
   elements: the list's first element and its count of steps that are not `+1` (0 for a
   range) state them (`vc::measure`, `Library::WithRanges`). *)
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
  else assert (key < lo || key > hi)
