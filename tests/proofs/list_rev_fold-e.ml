(* expect: bug within 3 *)
(* list_rev_fold.ml pushing each element plus one: the sum grows by the length. *)
let reverse l = List.fold_left (fun acc x -> (x + 1) :: acc) [] l

let sum l =
  let rec go acc = function [] -> acc | x :: xs -> go (acc + x) xs in
  go 0 l

let rec range a n = if n <= 0 then [] else a :: range (a + 3) (n - 1)

let main a n =
  let l = range a n in
  let r = reverse l in
  assert (List.length r = List.length l);
  assert (sum r = sum l)
