(* expect: verified *)
(* The divisor is checked first, so no Division_by_zero; halving a positive number
   makes it smaller. *)
(* run: a=7 b=0 depth=1 => value skip *)
(* run: a=7 b=2 depth=1 => value skip *)
let safe_div a b = if b = 0 then 0 else a / b

let main a b =
  let q = safe_div a b in
  if a > 0 && b > 1 then assert (q < a)
