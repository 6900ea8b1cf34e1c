(* expect: bug within 1 *)
(* Aliasing chosen by an input: `b` is `a` itself when `n > 0`. *)
(* run: n=0 depth=1 => value skip *)
(* run: n=1 depth=1 => failure at 13:3 (assert) *)
let pick n a = if n > 0 then a else ref 0
let write r v = r := v

let main n =
  let a = ref 1 in
  let b = pick n a in
  write b 5;
  assert (!a + !b = 6 || n > 0);
  assert (!a = 1)
