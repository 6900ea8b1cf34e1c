(* expect: verified *)
(* Fresh set (28 Nov), reversal with an accumulator keeps length and sum: the reversal
   is a List.fold_left pushing each element on the accumulator; length and sum are
   compared with List.length and a tail-recursive sum. *)
let reverse l = List.fold_left (fun acc x -> x :: acc) [] l

let sum l =
  let rec go acc = function [] -> acc | x :: xs -> go (acc + x) xs in
  go 0 l

let rec range a n = if n <= 0 then [] else a :: range (a + 3) (n - 1)

let main a n =
  let l = range a n in
  let r = reverse l in
  assert (List.length r = List.length l);
  assert (sum r = sum l)
