(* expect: safe *)
(* Fresh set (29 Nov), an association list searched by a lookup that raises `Missing k`,
   caught into a default; every value stored is 7. Not proved yet: the facts about the
   second component of each pair are not measured. *)
exception Missing of int
let rec lookup k table = match table with
  | [] -> raise (Missing k)
  | (k', v) :: rest -> if k = k' then v else lookup k rest
let find_or_zero k table = try lookup k table with Missing _ -> 0
let main n key =
  let table = List.init (max n 0) (fun i -> (i, 7)) in
  let v = find_or_zero key table in
  assert (v = 0 || v = 7)
