(* expect: bug within 1 *)
(* run: a=0 depth=1 => failure at 5:14 (assert) *)
(* run: a=5 depth=3 => value skip *)
let rec all l = match l with [] -> true | b :: r -> b && all r
let main a = assert (all [a > 0; a < 10])
