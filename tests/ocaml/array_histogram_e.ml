(* expect: bug within 3 *)
(* As array_histogram.ml, but the range test is off by one (`x <= k`): an input equal
   to k = 3 writes h.(3), past the end: Invalid_argument at the access. *)
(* run: a=3 b=0 c=0 depth=8 => failure at 8:57 (Invalid_argument) *)
(* run: a=2 b=0 c=0 depth=8 => value skip *)
let histogram k xs =
  let h = Array.make k 0 in
  List.iter (fun x -> if x >= 0 && x <= k then h.(x) <- h.(x) + 1) xs;
  h

let count h i = try h.(i) with Invalid_argument _ -> 0

let main a b c =
  let h = histogram 3 [a; b; c] in
  let total = Array.fold_left ( + ) 0 h in
  assert (total <= 3);
  assert (count h 3 = 0);
  if a = b && b = c && a >= 0 && a < 3 then assert (h.(a) = 3);
  if a >= 0 && a < 3 then assert (count h a >= 1)
