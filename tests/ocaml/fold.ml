(* expect: verified *)
(* A polymorphic fold with a two-argument function. *)
(* run: a=2 b=5 depth=3 => value skip *)
let rec fold f acc l = match l with [] -> acc | x :: r -> fold f (f acc x) r
let main a b = assert (fold (fun s x -> s + x) 0 [a; b] = a + b)
