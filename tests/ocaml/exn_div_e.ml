(* expect: bug within 3 *)
(* Like exn_div, but the handler claims a zero divisor never happens with a positive a. *)
(* run: a=6 b=0 depth=4 => failure at 13:17 (assert) *)
(* run: a=6 b=3 depth=4 => value skip *)
(* run: a=-6 b=0 depth=4 => value skip *)
let div a b = a / b
let apply f x = f x

let ratio a b = try apply (div a) b with Division_by_zero -> -1

let main a b =
  let r = ratio a b in
  if a > 0 then assert (r >= 0)
