(* expect: safe up to 8 *)
(* Top-level references passed as values: an overflow handler (a closure that raises) and
   a limit; `main` catches the raise, then installs a handler that saturates. *)
(* run: n=3 depth=2 => value 4 *)
(* run: n=20 depth=2 => value 10 *)
exception Overflow of int

let on_overflow = ref (fun v -> raise (Overflow v))
let limit = ref 10

let add_checked h lim x y =
  let s = x + y in
  if s > !lim then !h s else s

let main n =
  let r = try add_checked on_overflow limit n 1 with Overflow v -> 0 - v in
  on_overflow := (fun v -> !limit);
  let r2 = add_checked on_overflow limit n 1 in
  assert (r2 <= 10);
  assert (r <= 10);
  r2
