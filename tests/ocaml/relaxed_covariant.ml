(* expect: verified *)
(* The relaxed value restriction on an expansive right-hand side: `rev_app [] []` has type
   `'a list` (`'a` only in a covariant position), so it is generalised; `empty` is used at
   one type and `unused` at none, each computed once (`calls` counts the computations). *)
(* run: n=3 depth=2 => value 2 *)
let calls = ref 0
let rec rev_app l acc = incr calls; match l with [] -> acc | x :: r -> rev_app r (x :: acc)
let empty = rev_app [] []

let main n =
  let unused = rev_app [] [] in
  let b = true :: empty in
  assert (match b with [] -> false | x :: _ -> x);
  assert (!calls = 2);
  !calls
