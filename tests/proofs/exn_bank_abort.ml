(* expect: verified *)
(* Fresh set (28 Nov), a batch of transfers where an overdraft raises: the balances are
   a pair of cells; the batch is a recursion that stops at the first overdraft, raised
   from a checking helper one frame below the transfer, with the amount missing. The
   handler checks the amount, and that the transfer that raised left both accounts as
   they were before it.
   Proved since 29 Nov (second session): the two cells are allocated once per run, so
   they are globals of their own (`lower::single_cells`), not heap maps, and the sum of
   two globals is linear arithmetic. *)
exception Overdraft of int

let check balance amount = if balance < amount then raise (Overdraft (amount - balance))

let transfer (src, dst) amount =
  check !src amount;
  src := !src - amount;
  dst := !dst + amount

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
