(* expect: verified *)
(* Tuples of three components and tuple parameters. *)
(* run: a=1 b=2 c=3 depth=3 => value skip *)
let rot (a, b, c) = (b, c, a)
let main a b c =
  let (x, y, z) = rot (rot (rot (a, b, c))) in
  assert (x = a && y = b && z = c)
