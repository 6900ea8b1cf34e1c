(* expect: safe up to 8 *)
(* Arrays: prefix sums p.(i) = a.(0) + .. + a.(i - 1) of an array made by Array.init,
   and range sums as differences of two prefix sums. *)
(* run: x=1 y=2 z=3 depth=8 => value skip *)
let prefix_sums a =
  let n = Array.length a in
  let p = Array.make (n + 1) 0 in
  for i = 0 to n - 1 do
    p.(i + 1) <- p.(i) + a.(i)
  done;
  p

let range_sum p i j = p.(j) - p.(i)

let main x y z =
  let a = Array.init 3 (fun i -> if i = 0 then x else if i = 1 then y else z) in
  let p = prefix_sums a in
  assert (range_sum p 0 3 = x + y + z);
  assert (range_sum p 1 2 = y);
  assert (Array.length p = 4)
