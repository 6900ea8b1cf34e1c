(* expect: safe up to 6 *)
(* Three local mutually recursive functions counting modulo 3. *)
(* run: n=5 depth=6 => value skip *)
let main n =
  let rec a k = if k = 0 then 0 else b (k - 1)
  and b k = if k = 0 then 1 else c (k - 1)
  and c k = if k = 0 then 2 else a (k - 1) in
  if n >= 0 then assert (a n = n mod 3)
