(* expect: bug within 3 *)
(* run: n=1 depth=3 => failure at 7:14 (assert) *)
(* run: n=1 depth=2 => cut off at depth 2, call at 5:53 *)
(* run: n=0 depth=3 => value skip *)
let rec map f l = match l with [] -> [] | x :: r -> f x :: map f r
let rec sum l = match l with [] -> 0 | x :: r -> x + sum r
let main n = assert (sum (map (fun x -> x * 2) [n; n]) <> 4)
