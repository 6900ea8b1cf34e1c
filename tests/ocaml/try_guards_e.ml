(* expect: bug within 2 *)
(* A guard lets the code 7 through to the outer handler, which the assertion forgets. *)
(* run: n=-7 depth=30 => failure at 13:3 (assert) *)
(* run: n=2 depth=30 => value skip *)
exception Code of int

let check k = if k < 0 then raise (Code (-k)) else k

let inner k = try check k with Code c when c <> 7 -> 0

let main n =
  let r = try inner n with Code c -> c in
  assert (r <> 7)
