(* expect: bug within 1 *)
(* run: n=3 depth=1 => failure at 5:14 (assert) *)
(* run: n=3 depth=0 => cut off at depth 0, call at 5:22 *)
let adder x = let y = x * 2 in fun z -> y + z
let main n = assert (adder n 1 <> 7)
