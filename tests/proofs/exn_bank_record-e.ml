(* expect: bug within 3 *)
(* exn_bank_record.ml debiting before the check: a refused transfer still takes the money. *)
exception Insufficient of int

type account = { mutable balance : int }

let transfer src dst amount =
  src.balance <- src.balance - amount;
  if src.balance < 0 then raise (Insufficient (0 - src.balance));
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
