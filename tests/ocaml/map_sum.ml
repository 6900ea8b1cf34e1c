(* expect: safe up to 6 *)
(* run: n=3 depth=3 => value skip *)
let rec map f l = match l with [] -> [] | x :: r -> f x :: map f r
let rec sum l = match l with [] -> 0 | x :: r -> x + sum r
let main n = assert (sum (map (fun x -> x * 2) [n; n]) = 4 * n)
