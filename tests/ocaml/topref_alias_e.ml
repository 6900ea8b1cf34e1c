(* expect: bug within 1 *)
(* As topref_alias, but `b` is assumed untouched: wrong when `n <= 0` picks `b`. *)
(* run: n=1 depth=1 => value 5 *)
(* run: n=0 depth=1 => failure at 12:3 (assert) *)
let a = ref 0
let b = ref 0
let pick n = if n > 0 then a else b

let main n =
  let r = pick n in
  r := 5;
  assert (!b = 0);
  !r
