(* expect: verified *)
(* A polymorphic function used at `int * bool` and `bool * int`. *)
(* run: n=7 depth=1 => value skip *)
let swap (a, b) = (b, a)
let main n =
  let (x, y) = swap (n, true) in
  let (p, q) = swap (y, x) in
  assert (p && q = n)
