(* expect: safe up to 8 *)
(* Arrays: an in-place reversal by swaps of a four-element literal, through a
   function's parameter (the caller sees the swaps: arrays are aliased); reversing
   twice gives the array back. *)
(* run: w=1 x=2 y=3 z=4 depth=8 => value skip *)
let swap a i j =
  let t = a.(i) in
  a.(i) <- a.(j);
  a.(j) <- t

let reverse a =
  let n = Array.length a in
  for i = 0 to n / 2 - 1 do
    swap a i (n - 1 - i)
  done

let main w x y z =
  let a = [| w; x; y; z |] in
  reverse a;
  assert (a.(0) = z && a.(1) = y && a.(2) = x && a.(3) = w);
  reverse a;
  assert (a.(0) = w && a.(3) = z)
