(* expect: safe up to 6 *)
(* Tuple patterns of three and more without parentheses, bound by top-level and local
   `let`s, nested and with wildcards. *)
(* run: n=4 depth=30 => value skip *)
(* run: n=-3 depth=30 => value skip *)
let walk l =
  List.fold_left (fun (pos, lo, hi) x -> (pos + 1, min lo x, max hi x)) (0, 100, -100) l

let pos, lo, hi = walk [ 3; 1; 4; 1; 5 ]

let (a, b), _, c = ((1, 2), 3, 4)

let main n =
  assert (pos = 5 && lo = 1 && hi = 5);
  assert (a + b + c = 7);
  let count, low, high = walk [ n; n + 2; n - 1 ] in
  let x, y, z, w = (count, low, high, n) in
  assert (x = 3 && y = w - 1 && z = w + 2)
