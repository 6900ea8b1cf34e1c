(* expect: safe up to 6 *)
(* Functions passed where OCaml's types agree but the arities differ: a two-parameter
   function given to a function that applies its argument one argument at a time, a fold
   whose step returns a function, and a three-parameter function split both ways. *)
(* run: n=3 depth=30 => value skip *)
(* run: n=-2 depth=30 => value skip *)
let app g = let h = g 1 in h 2

let add x y = x + y

let compose_all fs = List.fold_right (fun f acc -> fun x -> acc (f x)) fs Fun.id

let twice_then g = let h = g 2 in let k = h 3 in k 4

let sum3 a b c = a + b + c

let pairwise g = let h = g 10 20 in h 5

let main n =
  assert (app add = 3);
  let k = compose_all [ (fun x -> x + 1); (fun x -> x * 2) ] in
  assert (k n = (n + 1) * 2);
  assert (twice_then sum3 = 9);
  assert (pairwise sum3 = 35);
  assert (List.fold_left (fun acc g -> g acc) n (List.map add [ 1; 2 ]) = n + 3)
