(* expect: bug *)
(* The failing twin of loop_lcg_band.ml: the highest position is taken before the step,
   so the position passes it on the first step up. *)
(* A walk driven by a linear congruence (steps in -2..2 from `state mod 5`), keeping the
   lowest and highest position seen in two more references: the position stays between
   them. The search's query at depth 4 is one z3 does not answer under our tuning
   (`smt.case_split 5`, src/solver/config.rs); Spacer proves the loop at once, and joins
   the search 100 ms in however long its queries take (src/engine/mod.rs,
   `tick_beside_the_search`; before, it joined between the search's rounds only, and the
   run ended UNKNOWN at its time limit). *)
let main n seed stride =
  if n >= 0 && n < 30 then begin
    let state = ref (abs seed) in
    let pos = ref 0 in
    let lo = ref 0 in
    let hi = ref 0 in
    let i = ref 0 in
    while !i < n do
      state := (!state * 5 + abs stride + 1) mod 17;
      let step = !state mod 5 - 2 in
      hi := max !hi !pos;
      pos := !pos + step;
      lo := min !lo !pos;
      assert (!lo <= !pos);
      assert (!pos <= !hi);
      i := !i + 1
    done
  end
