(* expect: bug within 0 *)
(* run: a=-1 depth=0 => failure at 4:14 (assert) *)
(* run: a=2 depth=0 => value skip *)
let main a = assert (abs a = a)
