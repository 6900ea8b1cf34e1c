(* expect: bug within 2 *)
(* As mix_rollback, but the rollback is skipped for a code that is not positive: an odd
   `n > 50` (the fresh cell's 0) or an even `n >= 100` leaves the account drained. *)
(* run: n=20 depth=2 => value 80 *)
(* run: n=100 depth=2 => failure at 20:3 (assert) *)
(* run: n=100 depth=1 => cut off at depth 1, call at 11:7 *)
exception Abort of int

let atomically cell f =
  let saved = !cell in
  try f cell with Abort code -> if code > 0 then cell := saved; raise (Abort code)

let main n =
  let acct = ref 100 in
  let alias = if n mod 2 = 0 then acct else ref 0 in
  let result =
    try atomically acct (fun c -> c := !c - n; if !alias < 50 then raise (Abort !alias); !c)
    with Abort k -> k
  in
  assert (!acct >= 50);
  result
