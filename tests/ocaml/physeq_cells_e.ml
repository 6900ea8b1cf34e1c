(* expect: bug within 3 *)
(* As physeq_cells, but a cell equal in contents is taken to be found by identity. *)
(* run: n=5 depth=3 => failure at 13:3 (assert) *)
(* run: n=2 depth=3 => value skip *)
let seen = ref 0
let rec mem_cell c l = match l with [] -> false | d :: rest -> d == c || mem_cell c rest

let main n =
  let a = ref n in
  let b = ref n in
  let l = if n > 3 then [a; seen] else [b] in
  assert (mem_cell a l = (n > 3));
  assert (n <= 3 || mem_cell b l)
