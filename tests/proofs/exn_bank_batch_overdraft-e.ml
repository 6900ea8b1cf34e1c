(* expect: bug *)
(* The failing twin of exn_bank_batch_overdraft.ml, fresh set (30 Nov), bank transfers: runs a batch of alternating transfers between two accounts where an overdraft raises Overdraft before any balance changes, so the total is preserved. *)
exception Overdraft of int

let transfer src dst amt =
  src := !src - amt;
  if !src < 0 then raise (Overdraft amt);
  dst := !dst + amt

let main a b k =
  if a >= 0 && b >= 0 && k >= 0 && k < 20 then begin
    let x = ref a in
    let y = ref b in
    let total = a + b in
    for i = 1 to k do
      let amt = (i * 7) mod 13 in
      let bx = !x in
      let by = !y in
      (try
         if i mod 2 = 0 then transfer x y amt else transfer y x amt
       with Overdraft _ -> assert (!x = bx && !y = by));
      assert (!x + !y = total);
      assert (!x >= 0 && !y >= 0)
    done
  end
