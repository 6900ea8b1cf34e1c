(* expect: bug within 1 *)
(* As mix_handler, but the first result is assumed non-negative: it is `n + 1` for
   `n < -1`, and an overflow (`n >= 10`, two calls deep) makes it negative too. *)
(* run: n=3 depth=2 => value 4 *)
(* run: n=20 depth=2 => failure at 21:3 (assert) *)
(* run: n=-2 depth=1 => failure at 21:3 (assert) *)
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
  assert (r >= 0);
  r2
