(* expect: bug within 3 *)
(* As partial_local.ml, but the step subtracts for odd k, so the sum is off. *)
(* run: n=2 depth=3 => failure at 8:18 (assert) *)
(* run: n=0 depth=3 => value skip *)
let main n =
  let rec iter f k x = if k <= 0 then x else iter f (k - 1) (f x) in
  let step k x = if k mod 2 = 0 then x + k else x - k in
  if n >= 0 then assert (iter (step 3) n 0 >= 0)
