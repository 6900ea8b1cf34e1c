(* expect: verified *)
(* Issue 33, exceptions carrying values: a batch of transfers between two accounts, each
   raising `Overdraft missing` (before touching either account) when the source cannot
   pay; the handler asserts on the amount carried, and the total is kept either way. *)
exception Overdraft of int

let transfer src dst amount =
  if !src < amount then raise (Overdraft (amount - !src))
  else begin
    src := !src - amount;
    dst := !dst + amount
  end

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
    assert (!x + !y = a + b);
    assert (!x >= 0)
  end
