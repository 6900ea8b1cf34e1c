(* expect: bug within 2 *)
(* As mix_transfer, but the deposit comes first: when the withdrawal raises, the money
   was already deposited (for 10 < n <= 100). *)
(* run: n=4 depth=2 => value 15 *)
(* run: n=50 depth=2 => failure at 23:3 (assert) *)
(* run: n=200 depth=2 => value 15 *)
exception Insufficient of int

let withdraw acct amt =
  if !acct < amt then raise (Insufficient !acct) else acct := !acct - amt

let deposit acct amt = acct := !acct + amt

let transfer src dst amt =
  deposit dst amt;
  withdraw src amt

let main n =
  let a = ref 10 in
  let b = ref 5 in
  let dst = if n > 100 then a else b in
  (try transfer a dst n with Insufficient have -> ());
  assert (!a + !b = 15);
  !a + !b
