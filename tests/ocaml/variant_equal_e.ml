(* expect: bug within 4 *)
(* As variant_equal.ml, but `simplify s = s` is asserted for every input: with x <> 0
   and y = 0 the first pass leaves Add (Num x, Num 0), which the second pass simplifies
   to Num x, so the two trees differ. *)
(* run: x=3 y=0 depth=8 => failure at 28:3 (assert) *)
(* run: x=1 y=2 depth=8 => value skip *)
type expr = Num of int | Add of expr * expr | Neg of expr

let rec simplify e =
  match e with
  | Add (Num 0, e) | Add (e, Num 0) -> simplify e
  | Add (a, b) -> Add (simplify a, simplify b)
  | Neg (Neg e) -> simplify e
  | Neg e -> Neg (simplify e)
  | Num n -> Num n

let rec eval e =
  match e with
  | Num n -> n
  | Add (a, b) -> eval a + eval b
  | Neg e -> - (eval e)

let main x y =
  let e = Add (Num x, Neg (Neg (Num y))) in
  let s = simplify e in
  assert (eval s = eval e);
  if x <> 0 && y <> 0 then assert (s = Add (Num x, Num y));
  assert (simplify s = s);
  assert (s <> Neg s);
  let l1 = [x; y] in
  assert (l1 = [x; y]);
  assert ((if x = y then [x] else [x; y]) <> [y; x] || x = y);
  let tags = Some [x; y] in
  assert (tags = Some l1 && tags <> None)
