(* expect: bug within 1 *)
(* As physeq_alias, but `c` is taken to be `b` after the write: wrong when `n > 0`. *)
(* run: n=1 depth=1 => failure at 13:3 (assert) *)
(* run: n=0 depth=1 => value 0 *)
let pick n a b = if n > 0 then a else b

let main n =
  let a = ref 0 in
  let b = ref 0 in
  let c = pick n a b in
  assert (a != b);
  c := 1;
  assert (c == b || a = b);
  !a
