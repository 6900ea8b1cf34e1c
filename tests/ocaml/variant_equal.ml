(* expect: safe up to 8 *)
(* Structural `=` / `<>` on recursive variants and lists: an expression simplifier
   checked by comparing whole trees (`s = Add (Num x, Num y)`, `simplify s = s`), lists
   compared as values, and an option holding a list. *)
(* run: x=1 y=2 depth=8 => value skip *)
(* run: x=3 y=0 depth=8 => value skip *)
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
  if y <> 0 then assert (simplify s = s);
  assert (s <> Neg s);
  let l1 = [x; y] in
  assert (l1 = [x; y]);
  assert ((if x = y then [x] else [x; y]) <> [y; x] || x = y);
  let tags = Some [x; y] in
  assert (tags = Some l1 && tags <> None)
