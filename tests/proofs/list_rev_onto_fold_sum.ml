(* expect: verified *)
(* Fresh set (29 Nov), a sum computed by a fold over a closure: a hand-written reversal onto an
   accumulator keeps the length and the sum, the sums taken with `List.fold_left ( + ) 0`.
   The list measure `sum` is chosen because the fold calls a procedure that adds (the
   closure `( + )`), not only when the folding procedure adds itself. VERIFIED in 4-6 s
   on a quiet machine (30 Nov). *)
let rec rev_onto acc l = match l with [] -> acc | x :: r -> rev_onto (x :: acc) r

let main n =
  let l = List.init (max n 0) (fun i -> i + 1) in
  let r = rev_onto [] l in
  assert (List.length r = List.length l);
  assert (List.fold_left ( + ) 0 r = List.fold_left ( + ) 0 l)
