(* expect: verified *)
(* Each level of the recursion draws Random.int 10 once; the sum of n draws is at most 9n. *)
(* run: n=3 depth=5 => value skip *)
(* run: n=3 input=9 input=9 input=9 depth=5 => value skip *)
let rec sum k =
  if k <= 0 then 0
  else
    let x = Random.int 10 in
    x + sum (k - 1)

let main n =
  let s = sum n in
  assert (n <= 0 || (0 <= s && s <= 9 * n))
