(* expect: safe up to 6 *)
(* Records: a bank's accounts with a `mutable` balance (a cell: an alias sees every
   update), an immutable id and history, `{ a with id = 2 }` copying an account into a
   new one with a balance of its own, a record holding a list of records, field updates
   `acct.balance <- ...` through a function's parameter. *)
(* run: n=7 depth=6 => value 2 *)
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
  let c = { a with id = 2 } in
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
