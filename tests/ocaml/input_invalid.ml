(* expect: verified *)
(* Random.int raises Invalid_argument for a bound <= 0; the handler catches it. *)
(* run: n=0 depth=3 => value -1 *)
(* run: n=5 input=7 depth=3 => value 2 *)
let pick n = try Random.int n with Invalid_argument _ -> -1

let main n =
  let v = pick n in
  assert (v < n || n <= 0);
  v
