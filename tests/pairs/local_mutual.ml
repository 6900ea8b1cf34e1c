(* expect: bug within 6 *)
(* Local mutual recursion; the twin defines the two functions as methods. *)
let main n =
  let rec even k = if k = 0 then true else odd (k - 1)
  and odd k = if k = 0 then false else even (k - 1) in
  if n >= 0 then assert (odd n = false || n < 5)
