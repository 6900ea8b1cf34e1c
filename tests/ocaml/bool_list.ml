(* expect: verified *)
(* A `bool list`. *)
(* run: a=3 depth=3 => value skip *)
let rec all l = match l with [] -> true | b :: r -> b && all r
let main a = assert (all [a > 0; a > 1] = (a > 1))
