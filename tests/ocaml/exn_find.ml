(* expect: safe up to 6 *)
(* Exceptions for control: `find` raises `Found i` at the first i below n where `p i`
   holds, `Not_found` when there is none; the handlers turn both into a result. *)
(* run: n=3 depth=6 => value skip *)
(* run: n=0 depth=6 => value skip *)
exception Found of int

let rec find p i n =
  if i >= n then raise Not_found
  else if p i then raise (Found i)
  else find p (i + 1) n

let main n =
  let r = try find (fun x -> x * x >= 4) 0 n; -1 with
    | Found i -> i
    | Not_found -> -1 in
  assert (r = -1 || r * r >= 4)
