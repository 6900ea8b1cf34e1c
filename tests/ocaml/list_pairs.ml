(* expect: safe up to 6 *)
(* A list of pairs; `length` is polymorphic and used on an int list and on a pair list. *)
(* run: n=3 depth=8 => value skip *)
(* run: n=0 depth=3 => value skip *)
let rec length l = match l with [] -> 0 | _ :: r -> 1 + length r
let rec range n = if n <= 0 then [] else n :: range (n - 1)
let rec pairs l = match l with [] -> [] | x :: r -> (x, 2 * x) :: pairs r
let rec check l = match l with [] -> () | (a, b) :: r -> assert (b = a + a); check r
let main n =
  let ps = pairs (range n) in
  check ps;
  assert (length ps = length (range n))
