(* expect: safe up to 4 *)
(* Euclid's algorithm with `mod`: the gcd of two positive numbers is positive. (That
   it divides both is true too, but `a mod g` with a variable `g` is nonlinear
   arithmetic the solver does not decide quickly.) *)
(* run: a=12 b=18 depth=4 => value skip *)
(* run: a=12 b=18 depth=3 => cut off at depth 3, call at 7:40 *)
let rec gcd a b = if b = 0 then a else gcd b (a mod b)

let main a b =
  if a > 0 && b > 0 then begin
    let g = gcd a b in
    assert (g > 0)
  end
