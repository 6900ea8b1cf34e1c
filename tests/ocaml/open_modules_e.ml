(* expect: bug within 2 *)
(* Under `let open List in`, `nth l 1` is the second element, not the first. *)
(* run: n=3 depth=40 => failure at 7:3 (assert) *)
let main n =
  let l = [ n; n + 1 ] in
  let open List in
  assert (nth l 1 = n)
