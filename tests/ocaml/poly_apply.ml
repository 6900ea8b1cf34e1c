(* expect: verified *)
(* A polymorphic helper used at two types: on ints and on a function. *)
(* run: n=4 depth=3 => value skip *)
let apply f x = f x
let inc x = x + 1
let main n =
  let a = apply inc n in
  let b = apply (fun g -> g n) inc in
  assert (a = b)
