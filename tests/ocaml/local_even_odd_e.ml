(* expect: bug within 2 *)
(* As local_even_odd.ml, but `odd 0` answers true: even 1 is then wrong. *)
(* run: n=1 depth=2 => failure at 8:18 (assert) *)
(* run: n=2 depth=3 => value skip *)
let main n =
  let rec even k = if k = 0 then true else odd (k - 1)
  and odd k = k = 0 || even (k - 1) in
  if n >= 0 then assert (even n = (n mod 2 = 0))
