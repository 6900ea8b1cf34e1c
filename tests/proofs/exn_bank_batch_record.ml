(* expect: verified *)
(* Fresh set (29 Nov), a batch of transfers between two records with a mutable balance;
   an overdraft raises before any change and is caught; the total is kept. *)
exception Overdraft
type account = { mutable balance : int }
let withdraw a x = if x > a.balance then raise Overdraft else a.balance <- a.balance - x
let transfer src dst x = withdraw src x; dst.balance <- dst.balance + x
let rec batch src dst n amount =
  if n > 0 then begin
    (try transfer src dst amount with Overdraft -> ());
    batch src dst (n - 1) (amount + 1)
  end
let main n a0 amount =
  if a0 >= 0 && amount >= 0 then begin
    let src = { balance = a0 } and dst = { balance = 0 } in
    batch src dst n amount;
    assert (src.balance >= 0);
    assert (src.balance + dst.balance = a0)
  end
