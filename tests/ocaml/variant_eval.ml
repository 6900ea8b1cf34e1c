(* expect: safe up to 6 *)
(* A recursive variant of expressions with an evaluator, a simplifier whose cases are
   nested constructor patterns with or-patterns binding variables, and a `depth` function;
   `Num n` in a list; an evaluation that divides raises `Division_by_zero`, caught and
   turned into an option. *)
(* run: x=3 y=1 depth=12 => value 2 *)
(* run: x=0 y=0 depth=12 => value 0 *)
type expr = Num of int | Add of expr * expr | Mul of expr * expr | Neg of expr | Div of expr * expr

let rec eval e = match e with
  | Num n -> n
  | Add (a, b) -> eval a + eval b
  | Mul (a, b) -> eval a * eval b
  | Neg a -> - (eval a)
  | Div (a, b) -> eval a / eval b

let rec simplify e = match e with
  | Add (Num 0, x) | Add (x, Num 0) -> simplify x
  | Mul (Num 1, x) | Mul (x, Num 1) -> simplify x
  | Add (a, b) -> Add (simplify a, simplify b)
  | Mul (a, b) -> Mul (simplify a, simplify b)
  | Neg (Neg a) -> simplify a
  | Neg a -> Neg (simplify a)
  | Div (a, b) -> Div (simplify a, simplify b)
  | Num n -> Num n

let safe_eval e = try Some (eval e) with Division_by_zero -> None

let main x y =
  let e = Add (Mul (Num x, Num 1), Neg (Neg (Neg (Add (Num 0, Num y))))) in
  assert (eval (simplify e) = eval e);
  assert (eval e = x - y);
  let q = Div (Num x, Add (Num y, Num (-1))) in
  (match safe_eval q with
   | None -> assert (y = 1)
   | Some v -> assert (y <> 1 && v = x / (y - 1)));
  let es = [Num x; Neg (Num y)] in
  List.fold_left (fun acc e -> acc + eval e) 0 es
