(* expect: safe up to 5 *)
(* run: m=1 n=1 depth=4 => value skip *)
let rec ack m n =
  if m = 0 then n + 1
  else if n = 0 then ack (m - 1) 1
  else ack (m - 1) (ack m (n - 1))
let main m n = if m >= 0 && n >= 0 then assert (ack m n > n)
