(* expect: bug within 2 *)
(* Like exn_nested, but the outer handler has no catch-all: `Failure` escapes `main`. *)
(* run: n=50 depth=4 => failure at 12:23 (Failure) *)
(* run: n=200 depth=4 => value skip *)
(* run: n=-4 depth=4 => value skip *)
exception Neg
exception Big of int

let check n =
  if n < 0 then raise Neg
  else if n > 100 then raise (Big n)
  else if n = 50 then failwith "fifty"
  else n

let classify n =
  try
    (try check n with Neg -> 0) + 1
  with
  | Big m -> m - 99

let main n =
  let c = classify n in
  assert (c >= 1)
