(* expect: verified *)
(* Fresh set (29 Nov), random transfers between two cells; `Insufficient have` carries
   the balance and stops the loop; balances stay non-negative and their total is kept. *)
exception Insufficient of int
let transfer from to_ amount =
  if !from < amount then raise (Insufficient !from);
  from := !from - amount;
  to_ := !to_ + amount
let main n a b =
  if a >= 0 && b >= 0 then begin
    let acc1 = ref a and acc2 = ref b in
    (try
      for i = 1 to n do transfer acc1 acc2 (Random.int 10) done
    with Insufficient have -> assert (have >= 0 && have = !acc1));
    assert (!acc1 >= 0 && !acc1 + !acc2 = a + b)
  end
