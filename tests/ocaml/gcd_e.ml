(* expect: bug within 2 *)
(* Without the guard on b, `gcd a 0` is fine but `a mod b` in `main` divides by zero. *)
(* run: a=5 b=0 depth=2 => failure at 9:11 (Division_by_zero) *)
(* run: a=12 b=18 depth=4 => value skip *)
let rec gcd a b = if b = 0 then a else gcd b (a mod b)

let main a b =
  let g = gcd a b in
  assert (a mod b = 0 || g <= b)
