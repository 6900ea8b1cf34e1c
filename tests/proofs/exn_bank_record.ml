(* expect: verified *)
(* Fresh set (28 Nov), a batch of transfers where an overdraft raises: accounts are
   records with a mutable balance; `transfer` raises `Insufficient short` before
   touching either account; the batch goes over a list of amounts with List.iter and a
   `try ... with` per transfer, counting the refused ones. The total is kept and no
   balance goes negative.
   Proved since 29 Nov (second session): the accounts and the counter are allocated once
   per run, so they are globals of their own (`lower::single_cells`); the amounts are at
   least `step`, checked non-negative by the caller (the least-element measure,
   `vc::measure`, now also for elements a caller bounds). *)
exception Insufficient of int

type account = { mutable balance : int }

let transfer src dst amount =
  if amount > src.balance then raise (Insufficient (amount - src.balance));
  src.balance <- src.balance - amount;
  dst.balance <- dst.balance + amount

let rec amounts n step = if n <= 0 then [] else step :: amounts (n - 1) (step + 1)

let main a n step =
  if a >= 0 && step >= 0 then begin
    let alice = { balance = a } in
    let bob = { balance = 0 } in
    let refused = ref 0 in
    List.iter
      (fun amount ->
        try transfer alice bob amount
        with Insufficient short ->
          assert (short > 0);
          incr refused)
      (amounts n step);
    assert (alice.balance + bob.balance = a);
    assert (alice.balance >= 0 && bob.balance >= 0 && !refused >= 0)
  end
