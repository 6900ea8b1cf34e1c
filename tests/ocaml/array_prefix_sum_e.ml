(* expect: bug within 4 *)
(* As array_prefix_sum.ml, but the prefix array has n cells, not n + 1: the last
   iteration writes p.(n), past the end (Invalid_argument, for every input). *)
(* run: x=1 y=2 z=3 depth=8 => failure at 9:5 (Invalid_argument) *)
let prefix_sums a =
  let n = Array.length a in
  let p = Array.make n 0 in
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
