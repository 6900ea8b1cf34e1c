(* expect: verified *)
(* `let filter p = function ...`: a function of two parameters, the second matched by the
   cases; `assert false` as the value of a case; a recursive call given fewer arguments
   than its definition takes (`walk (k - 1) (add 1)`, a partial application passed on). *)
(* run: n=4 depth=12 => value 2 *)
(* run: n=-1 depth=4 => value 0 *)
let rec filter p = function
  | [] -> []
  | x :: xs -> if p x then x :: filter p xs else filter p xs

let head = function [] -> assert false | x :: _ -> x

let rec range n = if n <= 0 then [] else n :: range (n - 1)

let add a b = a + b

let rec walk k f x = if k <= 0 then f x else walk (k - 1) (add 1) (f x)

let main n =
  let evens = filter (fun x -> x mod 2 = 0) (range n) in
  let c = match evens with [] -> 0 | _ -> head evens / 2 in
  assert (walk 2 (add 0) 0 = 2);
  c
