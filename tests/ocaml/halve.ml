(* expect: safe up to 6 *)
(* Halving with `/` until 0 takes at most n steps; a partial application of `( / )`-like
   helper fixes the divisor. *)
(* run: n=9 depth=5 => value skip *)
let div_by d x = x / d
let rec steps f x = if x <= 0 then 0 else 1 + steps f (f x)

let main n = if n >= 0 then assert (steps (div_by 2) n <= n)
