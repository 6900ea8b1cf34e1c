(* expect: bug within 3 *)
(* Like function_param, but `head` is applied to the empty list when no number is even. *)
(* run: n=1 depth=12 => failure at 9:27 (assert) *)
(* run: n=4 depth=12 => value 2 *)
let rec filter p = function
  | [] -> []
  | x :: xs -> if p x then x :: filter p xs else filter p xs

let head = function [] -> assert false | x :: _ -> x

let rec range n = if n <= 0 then [] else n :: range (n - 1)

let main n =
  let evens = filter (fun x -> x mod 2 = 0) (range n) in
  head evens / 2
