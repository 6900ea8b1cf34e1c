(* expect: verified *)
(* A handler that raises another exception (`Bad false` becomes `Bad true` one level
   up); a bool argument; `Not_found` passes through the inner `try`, which only
   handles `Bad`. *)
(* run: n=0 depth=5 => value skip *)
(* run: n=1 depth=5 => value skip *)
(* run: n=9 depth=5 => value skip *)
exception Bad of bool

let look n = if n = 0 then raise (Bad false) else if n = 1 then raise Not_found else n

let wrap n = try look n with Bad b -> if b then 1 else raise (Bad true)

let main n =
  let r = try wrap n with Bad b -> (if b then -1 else -2) | Not_found -> -3 in
  assert (r = n || r = -1 || r = -3)
