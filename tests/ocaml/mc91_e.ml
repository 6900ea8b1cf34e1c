(* expect: bug within 1 *)
(* McCarthy's 91 function; the assertion is wrong for n = 102. *)
(* run: n=102 depth=1 => failure at 9:31 (assert) *)
(* run: n=101 depth=1 => value skip *)
let rec mc91 x =
  if x > 100 then x - 10
  else mc91 (mc91 (x + 11))

let main n = if n <= 102 then assert (mc91 n = 91)

[@@@assert "typeof(main) <: int -> unit"]
