(* expect: bug within 4 *)
(* Landin's knot through a local reference: factorial calls itself through its cell. *)
(* run: n=2 depth=3 => value 2 *)
(* run: n=3 depth=4 => failure at 11:3 (assert) *)
(* run: n=3 depth=3 => cut off at depth 3, call at 8:44 *)
let main n =
  let r = ref (fun (x : int) -> 0) in
  r := (fun x -> if x <= 0 then 1 else x * !r (x - 1));
  let f = !r n in
  assert (f >= 1);
  assert (f <> 6);
  f
