(* expect: bug within 1 *)
(* As topref_pass, but the assertion forgets the second write through the passed name. *)
(* run: n=4 depth=1 => failure at 11:3 (assert) *)
(* run: n=4 depth=0 => cut off at depth 0, call at 9:3 *)
let total = ref 0
let add r v = r := !r + v

let main n =
  add total n;
  add total 1;
  assert (!total = n)
