(* expect: bug within 1 *)
(* References to references: `rr` holds `a`, or `b` when `n > 0`. *)
(* run: n=0 depth=1 => value skip *)
(* run: n=1 depth=1 => failure at 15:3 (assert) *)
let retarget rr target = rr := target

let main n =
  let a = ref 1 in
  let b = ref 2 in
  let rr = ref a in
  if n > 0 then retarget rr b;
  !rr := 7;
  assert (!(!rr) = 7);
  assert (!a = 1 || n <= 0);
  assert (!b = 2)
