(* expect: verified *)
(* Two accounts in references; a recursion moves a random amount from one to the other k
   times. Neither balance is known afterwards, their sum is: a fact relating two cells of
   the heap, linear over two distinguished cells (src/vc/horn_cells.rs). Since 29 Nov the
   two cells, allocated once per run, are globals of their own (src/lower/single_cells.rs),
   and the fact is linear over them; tests/integration/proofs.rs keeps the heap form. *)
let transfer src dst amount =
  src := !src - amount;
  dst := !dst + amount

let rec batch src dst k =
  if k > 0 then begin
    transfer src dst (Random.int 10);
    batch src dst (k - 1)
  end

let main a b k =
  let src = ref a and dst = ref b in
  batch src dst k;
  assert (!src + !dst = a + b)
