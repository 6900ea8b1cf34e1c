(* expect: bug within 1 *)
(* The OCaml twin of mc91.horef. *)
let rec mc91 x =
  if x > 100 then x - 10
  else mc91 (mc91 (x + 11))

let main n = if n <= 102 then assert (mc91 n = 91)
