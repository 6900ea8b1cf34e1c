(* expect: bug within 4 *)
(* run: n=3 depth=4 => failure at 7:3 (assert) *)
(* run: n=3 depth=3 => cut off at depth 3, call at 6:48 *)
(* run: n=2 depth=4 => value skip *)
let main n =
  let rec loop i acc = if i <= 0 then acc else loop (i - 1) (acc + i) in
  assert (loop n 0 <> 6)
