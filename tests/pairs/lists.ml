(* expect: bug within 3 *)
let rec make n = if n <= 0 then [] else n :: make (n - 1)
let rec sum l = match l with [] -> 0 | x :: r -> x + sum r
let main n = assert (sum (make n) <> 3)
