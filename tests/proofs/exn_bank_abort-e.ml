(* expect: bug within 3 *)
(* exn_bank_abort.ml crediting before the check: an overdraft leaves money created. *)
exception Overdraft of int

let check balance amount = if balance < amount then raise (Overdraft (amount - balance))

let transfer (src, dst) amount =
  dst := !dst + amount;
  check !src amount;
  src := !src - amount

let rec batch accounts k amount =
  if k > 0 then begin
    transfer accounts amount;
    batch accounts (k - 1) amount
  end

let main a b k =
  if a >= 0 && b >= 0 then begin
    let src = ref a and dst = ref b in
    let amount = 3 in
    (try batch (src, dst) k amount
     with Overdraft missing ->
       assert (missing > 0 && missing <= amount);
       assert (!src + missing = amount));
    assert (!src + !dst = a + b);
    assert (!src >= 0)
  end
