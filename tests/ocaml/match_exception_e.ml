(* expect: bug within 5 *)
(* As match_exception.ml, but a missing key gives -1, which `main` does not expect: found
   when `find` has gone through the whole table (five calls deep). *)
(* run: k=2 depth=6 => value 20 *)
(* run: k=3 depth=6 => value 30 *)
(* run: k=9 depth=6 => failure at 24:3 (assert) *)
exception Negative of int

let rec find k l =
  match l with
  | [] -> raise Not_found
  | (k', v) :: rest -> if k = k' then v else find k rest

let table = [ (1, 10); (2, 20); (3, -30) ]

let lookup k =
  match find k table with
  | v when v < 0 -> raise (Negative v)
  | v -> v
  | exception Not_found -> -1

let main k =
  let r = try lookup k with Negative v -> -v in
  assert (r >= 0);
  assert (k < 1 || k > 3 || r = 10 * k);
  r
