(* expect: bug within 2 *)
let rec fact n k = if n <= 0 then k 1 else fact (n - 1) (fun r -> k (n * r))
let main n = fact n (fun r -> assert (r > 1 || n > 2))
