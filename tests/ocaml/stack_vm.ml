(* expect: safe up to 8 *)
(* A compiler from arithmetic expressions (a recursive variant) to a stack machine (a
   list of instructions, a non-recursive variant) and the machine's interpreter, whose
   steps return an option: running the compiled code gives the expression's value. *)
(* run: x=5 k=3 depth=12 => value 7 *)
(* run: x=5 k=0 depth=12 => value 3 *)
type expr = Num of int | Var | Add of expr * expr | Sub of expr * expr | Mul of expr * expr

type instr = Push of int | Load | IAdd | ISub | IMul

let rec eval x e =
  match e with
  | Num n -> n
  | Var -> x
  | Add (a, b) -> eval x a + eval x b
  | Sub (a, b) -> eval x a - eval x b
  | Mul (a, b) -> eval x a * eval x b

let rec compile e =
  match e with
  | Num n -> [ Push n ]
  | Var -> [ Load ]
  | Add (a, b) -> compile a @ compile b @ [ IAdd ]
  | Sub (a, b) -> compile a @ compile b @ [ ISub ]
  | Mul (a, b) -> compile a @ compile b @ [ IMul ]

let step x stack i =
  match (i, stack) with
  | Push n, s -> Some (n :: s)
  | Load, s -> Some (x :: s)
  | IAdd, b :: a :: s -> Some (a + b :: s)
  | ISub, b :: a :: s -> Some (a - b :: s)
  | IMul, b :: a :: s -> Some (a * b :: s)
  | _, _ -> None

let rec run x stack code =
  match code with
  | [] -> (match stack with [ v ] -> Some v | _ -> None)
  | i :: rest -> (match step x stack i with None -> None | Some s -> run x s rest)

let main x k =
  let e = if k > 0 then Sub (Mul (Var, Num 2), Num k) else Add (Num 1, Sub (Var, Num 3)) in
  match run x [] (compile e) with
  | Some v -> assert (v = eval x e); v
  | None -> assert false
