(* expect: bug within 3 *)
(* exn_transfer.ml debiting before the check: an overdraft leaves money missing. *)
exception Overdraft of int

let transfer src dst amount =
  src := !src - amount;
  if !src < 0 then raise (Overdraft (0 - !src))
  else dst := !dst + amount

let rec batch src dst k amount =
  if k > 0 then begin
    transfer src dst amount;
    batch src dst (k - 1) amount
  end

let main a b k amount =
  if amount > 0 && a >= 0 && b >= 0 then begin
    let x = ref a in
    let y = ref b in
    (try batch x y k amount with Overdraft missing -> assert (missing > 0));
    assert (!x + !y = a + b)
  end
