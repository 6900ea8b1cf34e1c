(* expect: safe up to 6 *)
(* `try ... with` cases with `when` guards and patterns on the exception's argument,
   falling through to later cases and re-raising to an outer handler when none matches. *)
(* run: n=3 depth=30 => value skip *)
(* run: n=0 depth=30 => value skip *)
(* run: n=-5 depth=30 => value skip *)
exception Code of int

exception Stop

let check k = if k < 0 then raise (Code (-k)) else if k = 0 then raise Stop else k

let classify k =
  try check k with
  | Code 1 -> 100
  | Code c when c > 10 -> 200
  | Stop when k = 0 -> 300
  | Code c -> c

let outer k =
  try (try check k with Code 0 -> 0 | Stop when k > 0 -> 1) with
  | Stop -> 2
  | Code c -> c + 1000

let main n =
  assert (classify (-1) = 100);
  assert (classify (-20) = 200);
  assert (classify 0 = 300);
  assert (classify (-3) = 3);
  assert (classify n = (if n = -1 then 100 else if n < -10 then 200 else if n = 0 then 300 else if n < 0 then -n else n));
  assert (outer 0 = 2);
  assert (outer (-4) = 1004)
