(* expect: bug within 4 *)
(* Like list_pairs, but the pair made for 3 is off by one. *)
(* run: n=3 depth=8 => failure at 8:58 (assert) *)
(* run: n=2 depth=8 => value skip *)
let rec length l = match l with [] -> 0 | _ :: r -> 1 + length r
let rec range n = if n <= 0 then [] else n :: range (n - 1)
let rec pairs l = match l with [] -> [] | x :: r -> (x, if x = 3 then 5 else 2 * x) :: pairs r
let rec check l = match l with [] -> () | (a, b) :: r -> assert (b = a + a); check r
let main n =
  let ps = pairs (range n) in
  check ps;
  assert (length ps = length (range n))
