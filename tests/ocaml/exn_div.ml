(* expect: verified *)
(* `Division_by_zero` caught: a ratio with a zero divisor is 0 instead. The division
   happens two calls down, through a partial application. *)
(* run: a=6 b=0 depth=4 => value skip *)
(* run: a=6 b=3 depth=4 => value skip *)
(* run: a=-7 b=2 depth=4 => value skip *)
let div a b = a / b
let apply f x = f x

let ratio a b = try apply (div a) b with Division_by_zero -> 0

let main a b =
  let r = ratio a b in
  if b = 0 then assert (r = 0) else assert (r * b <= abs a)
