(* expect: verified *)
(* A function returning a function, applied to both arguments at once. *)
(* run: n=3 depth=1 => value skip *)
let adder x = let y = x * 2 in fun z -> y + z
let main n = assert (adder n 1 = 2 * n + 1)
