(* expect: bug within 4 *)
(* Like input_sum, but the check misses the run where all three draws are 9 (needs the
   fresh input at depth 3 to be 9). *)
(* run: n=3 input=9 input=9 input=9 depth=5 => failure at 14:3 (assert) *)
(* run: n=3 input=9 input=9 input=8 depth=5 => value skip *)
let rec sum k =
  if k <= 0 then 0
  else
    let x = Random.int 10 in
    x + sum (k - 1)

let main n =
  let s = sum n in
  assert (n < 3 || s < 9 * n)
