(* expect: bug within 3 *)
(* As or_patterns.ml, but the last assertion forgets that `classify` also matches when
   only `b` is 1 or 2 (its second alternative): `classify (3, 1)` is 3, found once
   `firsts` returns (three calls deep). *)
(* run: a=2 b=0 depth=4 => value 2 *)
(* run: a=3 b=1 depth=4 => failure at 27:3 (assert) *)
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
  assert (c = 0 || a = 1 || a = 2);
  pick (a, b)
