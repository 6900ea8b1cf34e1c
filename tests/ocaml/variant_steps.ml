(* expect: safe up to 8 *)
(* A recursive variant holding functions: a program as a chain of steps, each an
   `int -> int` closure, run by an interpreter; which closure the middle steps hold is
   chosen by the input. *)
(* run: n=3 depth=8 => value 7 *)
(* run: n=0 depth=8 => value 5 *)
type cmd = Step of (int -> int) * cmd | Done

let rec run c x =
  match c with
  | Done -> x
  | Step (f, rest) -> run rest (f x)

let rec repeat k f rest = if k <= 0 then rest else Step (f, repeat (k - 1) f rest)

let rec length c = match c with Done -> 0 | Step (_, rest) -> 1 + length rest

let main n =
  let add k = fun x -> x + k in
  let double = if n > 2 then (fun x -> x + x) else add 2 in
  let prog = Step (add 1, repeat 2 double (Step (add n, Done))) in
  assert (length prog = 4);
  let r = run prog 0 in
  assert (r >= 4 + n);
  r
