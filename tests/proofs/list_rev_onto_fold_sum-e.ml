(* expect: bug *)
(* Issue 33, the twin of list_rev_onto_fold_sum.ml: the reversal drops a 3, so the sums
   differ once n >= 3. *)
let rec rev_onto acc l =
  match l with [] -> acc | x :: r -> if x = 3 then rev_onto acc r else rev_onto (x :: acc) r

let main n =
  let l = List.init (max n 0) (fun i -> i + 1) in
  let r = rev_onto [] l in
  assert (List.fold_left ( + ) 0 r = List.fold_left ( + ) 0 l)
