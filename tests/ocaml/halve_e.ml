(* expect: bug within 3 *)
(* Counting the steps that keep x at 1: halving 1 gives 0 (one step), dividing 2 by 1
   stops at once; the claimed bound (no step at all) is wrong for n = 1. *)
(* run: n=1 depth=3 => failure at 8:29 (assert) *)
let div_by d x = x / d
let rec steps f x = if x <= 0 || x > 1 then 0 else 1 + steps f (f x)

let main n = if n >= 0 then assert (steps (div_by 2) n + steps (div_by 1) 2 < 1)
