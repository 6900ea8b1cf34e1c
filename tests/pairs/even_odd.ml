(* expect: bug within 5 *)
let rec even n = if n = 0 then true else odd (n - 1)
and odd n = if n = 0 then false else even (n - 1)
let main n = if n >= 0 then assert (even n = false || n < 4)
