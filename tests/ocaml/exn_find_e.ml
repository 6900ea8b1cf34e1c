(* expect: bug within 3 *)
(* Like exn_find, but the handler of `Found i` claims i is never 2. *)
(* run: n=3 depth=6 => failure at 16:3 (assert) *)
(* run: n=2 depth=6 => value skip *)
exception Found of int

let rec find p i n =
  if i >= n then raise Not_found
  else if p i then raise (Found i)
  else find p (i + 1) n

let main n =
  let r = try find (fun x -> x * x >= 4) 0 n; -1 with
    | Found i -> i
    | Not_found -> -1 in
  assert (r <> 2)
