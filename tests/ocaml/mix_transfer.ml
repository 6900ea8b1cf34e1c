(* expect: safe up to 8 *)
(* Accounts are cells; `withdraw` raises before touching its cell when the balance is too
   low, so a failed transfer changes nothing. The destination is `a` itself when
   `n > 100` (aliasing chosen by the input). *)
(* run: n=4 depth=2 => value 15 *)
(* run: n=50 depth=2 => value 15 *)
(* run: n=200 depth=2 => value 15 *)
exception Insufficient of int

let withdraw acct amt =
  if !acct < amt then raise (Insufficient !acct) else acct := !acct - amt

let deposit acct amt = acct := !acct + amt

let transfer src dst amt =
  withdraw src amt;
  deposit dst amt

let main n =
  let a = ref 10 in
  let b = ref 5 in
  let dst = if n > 100 then a else b in
  (try transfer a dst n with Insufficient have -> assert (have = !a && have < n));
  assert (!a + !b = 15);
  !a + !b
