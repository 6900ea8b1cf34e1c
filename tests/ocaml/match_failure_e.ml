(* expect: bug within 1 *)
(* A non-exhaustive match fails (`Match_failure`) on the missing case. *)
(* run: n=0 depth=1 => failure at 5:14 (Match_failure) *)
(* run: n=3 depth=1 => value 3 *)
let head l = match l with x :: _ -> x
let main n = head (if n > 0 then [n] else [])
