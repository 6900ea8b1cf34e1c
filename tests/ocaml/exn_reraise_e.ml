(* expect: bug within 2 *)
(* Like exn_reraise, but `main` does not handle `Not_found`: it escapes on n = 1. *)
(* run: n=1 depth=5 => failure at 7:65 (Not_found) *)
(* run: n=0 depth=5 => value skip *)
exception Bad of bool

let look n = if n = 0 then raise (Bad false) else if n = 1 then raise Not_found else n

let wrap n = try look n with Bad b -> if b then 1 else raise (Bad true)

let main n =
  let r = try wrap n with Bad b -> if b then -1 else -2 in
  assert (r = n || r = -1)
