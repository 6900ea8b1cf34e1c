(* expect: bug within 1 *)
(* run: n=1 depth=1 => failure at 8:3 (assert) *)
(* run: n=0 depth=1 => value skip *)
let counter = ref 0
let tick () = incr counter
let main n =
  if n > 0 then begin tick (); tick () end;
  assert (!counter < 2)
