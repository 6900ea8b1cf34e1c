(* expect: bug within 3 *)
(* Allocation inside recursion, buggy: at n = 2 the recursive call gets the parent's cell
   instead of this level's, so this level's cell is never written. *)
(* run: n=1 depth=3 => value 2 *)
(* run: n=2 depth=3 => failure at 12:5 (assert) *)
(* run: n=3 depth=4 => failure at 12:5 (assert) *)
let rec go n parent =
  let mine = ref n in
  if n <= 0 then begin parent := !parent + 1; 0 end
  else begin
    let sum = go (n - 1) (if n = 2 then parent else mine) in
    assert (!mine = n + 1);
    parent := !parent + 1;
    sum + !mine
  end

let main n =
  let top = ref 0 in
  go n top
