(* expect: safe up to 5 *)
(* run: n=2 depth=3 => value skip *)
(* run: n=-3 depth=1 => value skip *)
let rec make n = if n <= 0 then [] else n :: make (n - 1)
let rec length l = match l with [] -> 0 | _ :: r -> 1 + length r
let main n = assert (length (make n) >= n)
