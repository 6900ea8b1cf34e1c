(* expect: bug within 1 *)
(* As mix_refref, but the write is assumed to reach `x`: wrong once `p` is redirected. *)
(* run: n=1 depth=1 => failure at 14:3 (assert) *)
(* run: n=0 depth=1 => value 7 *)
let redirect p target = p := target
let write_through p v = !p := v

let main n =
  let x = ref 0 in
  let y = ref 0 in
  let p = ref x in
  if n > 0 then redirect p y;
  write_through p 7;
  assert (!x = 7);
  !(!p)
