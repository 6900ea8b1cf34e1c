(* expect: safe up to 8 *)
(* Arrays: a histogram of three inputs into k = 3 buckets, a value out of range
   counted nowhere; `Array.fold_left` totals it, and a read past the end is caught
   (`try h.(i) with Invalid_argument _ -> 0`). *)
(* run: a=1 b=1 c=1 depth=8 => value skip *)
(* run: a=0 b=5 c=-1 depth=8 => value skip *)
let histogram k xs =
  let h = Array.make k 0 in
  List.iter (fun x -> if x >= 0 && x < k then h.(x) <- h.(x) + 1) xs;
  h

let count h i = try h.(i) with Invalid_argument _ -> 0

let main a b c =
  let h = histogram 3 [a; b; c] in
  let total = Array.fold_left ( + ) 0 h in
  assert (total <= 3);
  assert (count h 3 = 0);
  if a = b && b = c && a >= 0 && a < 3 then assert (h.(a) = 3);
  if a >= 0 && a < 3 then assert (count h a >= 1)
