(* expect: bug within 5 *)
(* As list_ledger.ml, but the reversing entry takes `b` off account 1 instead of `a`:
   the balance is wrong whenever `a <> b`, found once `fold_left` has gone through the
   three entries and the end of the list (five calls deep). *)
(* run: a=5 b=3 depth=8 => failure at 18:5 (assert) *)
(* run: a=-1 b=3 depth=8 => value 0 *)
let balance acct entries =
  List.fold_left (fun acc (who, amt) -> if who = acct then acc + amt else acc) 0 entries

let deposits entries = List.filter (fun (_, amt) -> amt > 0) entries

let total entries = List.fold_left (fun acc (_, amt) -> acc + amt) 0 entries

let main a b =
  if a >= 0 && b >= 0 then begin
    let ledger = [ (1, a); (2, b) ] in
    let ledger = ledger @ [ (1, -b) ] in
    assert (balance 1 ledger = 0);
    assert (total (deposits ledger) = a + b);
    let second = try List.assoc 2 ledger with Not_found -> -1 in
    assert (second = b);
    assert (List.length (List.map fst ledger) = 3);
    a + b
  end
  else 0
