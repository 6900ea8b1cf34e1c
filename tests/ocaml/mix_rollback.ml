(* expect: safe up to 8 *)
(* A transaction over a cell: `atomically` saves the content, runs `f`, and on `Abort`
   restores it and re-raises. `alias` is the account itself for even `n`. *)
(* run: n=20 depth=2 => value 80 *)
(* run: n=60 depth=2 => value 40 *)
(* run: n=3 depth=2 => value 0 *)
exception Abort of int

let atomically cell f =
  let saved = !cell in
  try f cell with Abort code -> cell := saved; raise (Abort code)

let main n =
  let acct = ref 100 in
  let alias = if n mod 2 = 0 then acct else ref 0 in
  let result =
    try atomically acct (fun c -> c := !c - n; if !alias < 50 then raise (Abort !alias); !c)
    with Abort k -> k
  in
  assert (!acct >= 50);
  assert (result < 50 || result = !acct);
  result
