(* expect: safe *)
(* Fresh set (28 Nov), a batch of transfers where an overdraft raises: accounts are
   records with a mutable balance; `transfer` raises `Insufficient short` before
   touching either account; the batch goes over a list of amounts with List.iter and a
   `try ... with` per transfer, counting the refused ones. The total is kept and no
   balance goes negative.
   Not proved yet: SAFE UP TO DEPTH 8 with the proof engines given 60 s. *)
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
