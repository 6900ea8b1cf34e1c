(* expect: bug within 2 *)
(* run: a=1 b=2 depth=2 => failure at 5:16 (assert) *)
(* run: a=2 b=1 depth=2 => value skip *)
let rec fold f acc l = match l with [] -> acc | x :: r -> fold f (f acc x) r
let main a b = assert (fold (fun m x -> max m x) a [b] = a)
