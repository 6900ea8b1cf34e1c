(* expect: bug within 4 *)
(* As variant_machine.ml, but the light stays green for one tick more, so `Green 3` is
   reached after four ticks and the assertion on the green count fails.
   Variants: a traffic controller as a state machine over a variant with constant and
   argument-carrying constructors, events as a second variant, a shape variant whose
   constructor carries a tuple, a `when` guard inside a constructor's case, and structural
   `=` / `<>` on variant values. *)
(* run: n=4 depth=10 => failure at 37:17 (assert) *)
(* run: n=-2 depth=10 => value 0 *)
type light = Red | Green of int | Yellow
type event = Tick | Reset | Emergency of bool
type shape = Circle of int | Rect of int * int | Dot

let next l e =
  match (l, e) with
  | (_, Reset) -> Red
  | (_, Emergency true) -> Red
  | (Red, Tick) -> Green 0
  | (Green k, Tick) when k >= 3 -> Yellow
  | (Green k, Tick) -> Green (k + 1)
  | (Yellow, Tick) -> Red
  | (l, Emergency false) -> l

let rec run l n = if n <= 0 then l else run (next l Tick) (n - 1)

let area s = match s with
  | Circle r -> 3 * r * r
  | Rect (w, h) -> w * h
  | Dot -> 0

let count_green l = match l with Green k -> k + 1 | Red | Yellow -> 0

let main n =
  let l = run Red n in
  (match l with
   | Red -> assert (n <= 0 || n mod 5 = 0)
   | Green k -> assert (k >= 0 && k <= 2)
   | Yellow -> assert (n >= 4));
  assert (next l Reset = Red);
  assert (next l (Emergency false) = l);
  assert (next (Green 1) Tick = Green 2 && Green 2 <> Green 3);
  let s = if n > 0 then Rect (n, 2) else if n < 0 then Circle n else Dot in
  assert (area s >= 0);
  assert ((s = Dot) = (n = 0));
  count_green l + area Dot
