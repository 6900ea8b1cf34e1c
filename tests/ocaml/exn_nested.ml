(* expect: verified *)
(* Nested handlers inside a function: the inner `try` handles `Neg`, the outer one `Big`;
   an exception no handler names (`Failure`) is re-raised by the inner one and caught by
   the outer catch-all. *)
(* run: n=-4 depth=4 => value skip *)
(* run: n=200 depth=4 => value skip *)
(* run: n=50 depth=4 => value skip *)
(* run: n=7 depth=4 => value skip *)
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
  | _ -> 1

let main n =
  let c = classify n in
  assert (c >= 1)
