(* expect: bug within 1 *)
(* An exception escaping `main` is a failure. *)
(* run: n=-6 depth=1 => failure at 6:29 (Negative) *)
(* run: n=-5 depth=1 => value 0 *)
exception Negative
let check x = if x < 0 then raise Negative else x
let main n = check (n + 5)
