(* expect: bug within 9 *)
(* Binomial coefficients memoised under the wrong key (k - 1): later lookups read a neighbour's value. *)
(* run: n=4 k=2 depth=30 => failure at 27:20 (assert) *)
(* run: n=2 k=1 depth=30 => value skip *)
let table : ((int * int) * int) list ref = ref []
let hits = ref 0

let rec choose n k =
  if k < 0 || k > n then 0
  else if k = 0 || k = n then 1
  else
    match List.assoc_opt (n, k) !table with
    | Some v -> incr hits; v
    | None ->
      let v = choose (n - 1) (k - 1) + choose (n - 1) k in
      table := ((n, k - 1), v) :: !table;
      v

let main n k =
  if n >= 0 && n <= 5 then begin
    let c = choose n k in
    assert (c >= 0);
    if k >= 0 && k <= n then begin
      assert (c >= 1);
      assert (c = choose n (n - k))
    end;
    if n >= 1 then assert (choose n 1 = n)
  end
