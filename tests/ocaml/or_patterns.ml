(* expect: safe up to 6 *)
(* Or-patterns that bind variables in `match` and `function` cases: the same names on both
   sides, nested in tuples and lists, beside or-patterns without variables and `as`; the
   leftmost alternative that matches binds them, as in OCaml. *)
(* run: a=2 b=0 depth=4 => value 2 *)
(* run: a=0 b=0 depth=4 => value 0 *)
let pick p =
  match p with
  | (x, 0) | (0, x) -> x
  | (x, y) -> x + y

let rec firsts l =
  match l with
  | [] -> 0
  | (x :: _, _) :: rest | ([], x) :: rest -> x + firsts rest

let classify = function
  | (((1 | 2) as k), n) | (n, ((1 | 2) as k)) -> k * n
  | _ -> 0

let main a b =
  assert (pick (a, 0) = a);
  assert (pick (0, b) = b);
  let s = firsts [ ([ a ], 5); ([], b) ] in
  assert (s = a + b);
  let c = classify (a, b) in
  assert (c = 0 || a = 1 || a = 2 || b = 1 || b = 2);
  pick (a, b)
