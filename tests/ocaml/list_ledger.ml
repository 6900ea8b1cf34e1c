(* expect: safe up to 8 *)
(* A ledger as a list of (account, amount) entries, read with the Stdlib's `List`
   functions (OCaml source in the prelude, verified like the program): balances with
   `fold_left`, deposits with `filter`, a lookup with `assoc` that may raise `Not_found`,
   `@` to append an entry, `map` with `fst` passed as a function. *)
(* run: a=5 b=3 depth=8 => value 8 *)
(* run: a=-1 b=3 depth=8 => value 0 *)
let balance acct entries =
  List.fold_left (fun acc (who, amt) -> if who = acct then acc + amt else acc) 0 entries

let deposits entries = List.filter (fun (_, amt) -> amt > 0) entries

let total entries = List.fold_left (fun acc (_, amt) -> acc + amt) 0 entries

let main a b =
  if a >= 0 && b >= 0 then begin
    let ledger = [ (1, a); (2, b) ] in
    let ledger = ledger @ [ (1, -a) ] in
    assert (balance 1 ledger = 0);
    assert (total (deposits ledger) = a + b);
    let second = try List.assoc 2 ledger with Not_found -> -1 in
    assert (second = b);
    assert (List.length (List.map fst ledger) = 3);
    a + b
  end
  else 0
