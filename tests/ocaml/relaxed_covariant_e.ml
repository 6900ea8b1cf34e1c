(* expect: bug within 1 *)
(* As relaxed_covariant, but the computation of the unused `unused` is assumed dropped:
   OCaml computes it (and so do we), so `calls` is 2. *)
(* run: n=3 depth=1 => failure at 13:3 (assert) *)
let calls = ref 0
let rec rev_app l acc = incr calls; match l with [] -> acc | x :: r -> rev_app r (x :: acc)
let empty = rev_app [] []

let main n =
  let unused = rev_app [] [] in
  let b = true :: empty in
  assert (match b with [] -> false | x :: _ -> x);
  assert (!calls = 1);
  !calls
