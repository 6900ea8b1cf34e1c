(* expect: bug within 1 *)
(* Random.int 0 raises Invalid_argument, which escapes main. *)
(* run: n=0 depth=3 => failure at 5:14 (Invalid_argument) *)
(* run: n=3 input=2 depth=3 => value 2 *)
let pick n = Random.int n

let main n = if n < 2 then pick (n - n) else pick n
