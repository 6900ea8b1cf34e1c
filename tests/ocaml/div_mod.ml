(* expect: verified *)
(* OCaml's `/` truncates toward zero and `mod` takes the dividend's sign, so
   n = (n / d) * d + n mod d and |n mod d| < |d|, here for d = 3 and d = -2. *)
(* run: n=-7 depth=1 => value skip *)
(* run: n=7 depth=1 => value skip *)
(* run: n=0 depth=1 => value skip *)
let check n d =
  let q = n / d in
  let r = n mod d in
  assert (n = q * d + r);
  assert (abs r < abs d);
  assert (r = 0 || (r > 0) = (n > 0))

let main n = check n 3; check n (-2); assert ((-n) / 2 = - (n / 2))
