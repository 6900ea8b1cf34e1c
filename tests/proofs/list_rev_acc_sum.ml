(* expect: verified *)
(* Fresh set (29 Nov), a reversal onto an accumulator keeps length and sum, both computed
   by hand-written recursions. *)
let rec rev acc l = match l with [] -> acc | x :: r -> rev (x :: acc) r
let rec length l = match l with [] -> 0 | _ :: r -> 1 + length r
let rec sum l = match l with [] -> 0 | x :: r -> x + sum r
let main n base =
  let l = List.init (max n 0) (fun i -> base + i) in
  let r = rev [] l in
  assert (length r = length l && sum r = sum l)
