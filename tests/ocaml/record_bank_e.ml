(* expect: bug within 1 *)
(* As record_bank.ml, but the second account is the first one under another name
   (`let c = a`), not a copy: a deposit into `a` shows in `c` too, so `c.balance = 10`
   fails for every n > 0. *)
(* run: n=7 depth=6 => failure at 29:3 (assert) *)
(* run: n=0 depth=6 => value 10 *)
type account = { id : int; mutable balance : int; history : int list }
type bank = { accounts : account list; mutable ops : int }

let deposit acct amt =
  if amt <= 0 then invalid_arg "deposit";
  acct.balance <- acct.balance + amt

let withdraw b acct amt =
  if amt > acct.balance then false
  else begin
    acct.balance <- acct.balance - amt;
    b.ops <- b.ops + 1;
    true
  end

let main n =
  let a = { id = 1; balance = 10; history = [] } in
  let c = a in
  let b = { accounts = [ a; c ]; ops = 0 } in
  let alias = a in
  if n > 0 then deposit alias n;
  assert (a.balance = 10 + (if n > 0 then n else 0));
  assert (c.balance = 10);
  let ok = withdraw b a 15 in
  assert (ok = (n >= 5));
  assert (b.ops = (if ok then 1 else 0));
  assert (List.length b.accounts = 2);
  a.balance
