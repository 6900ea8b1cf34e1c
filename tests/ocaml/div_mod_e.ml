(* expect: bug within 0 *)
(* Wrong: with truncation, (-7) / 2 is -3 and (-7) mod 2 is -1 (not -4 and 1, as
   flooring division would give), so the assertion fails for negative odd n. *)
(* run: n=-7 depth=0 => failure at 8:22 (assert) *)
(* run: n=7 depth=0 => value skip *)
(* run: n=-8 depth=0 => value skip *)
let main n =
  let r = n mod 2 in assert (r >= 0)
