(* expect: bug within 4 *)
(* Like list_nested without the filter: the last list built is [], and `head` fails on it. *)
(* run: m=2 depth=8 => failure at 8:27 (assert) *)
(* run: m=0 depth=2 => value 0 *)
let rec make_list m = if m <= 0 then [] else m :: make_list (m - 1)
let rec make_lists m = if m <= 0 then [] else make_list (m - 1) :: make_lists (m - 1)
let rec map f = function [] -> [] | x :: xs -> f x :: map f xs
let head = function [] -> assert false | x :: _ -> x
let rec sum = function [] -> 0 | x :: xs -> x + sum xs
let main m = sum (map head (make_lists m))
