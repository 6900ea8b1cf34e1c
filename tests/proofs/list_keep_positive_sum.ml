(* expect: verified *)
(* Fresh set (29 Nov), a hand-written filter keeps the positive elements of a descending
   list; their sum is never negative and the result is no longer than the input. *)
let rec keep_pos l = match l with [] -> [] | x :: r -> if x > 0 then x :: keep_pos r else keep_pos r
let rec sum l = match l with [] -> 0 | x :: r -> x + sum r
let main n seed =
  let l = List.init (max n 0) (fun i -> seed - (3 * i)) in
  let kept = keep_pos l in
  assert (sum kept >= 0);
  assert (List.length kept <= List.length l)
