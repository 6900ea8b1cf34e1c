(* expect: safe up to 6 *)
(* Lists of int lists, as MoCHi's map_filter builds them; the filter keeps `head` away from []. *)
(* run: m=3 depth=8 => value skip *)
(* run: m=0 depth=2 => value skip *)
let rec make_list m = if m <= 0 then [] else m :: make_list (m - 1)
let rec make_lists m = if m <= 0 then [] else make_list (m - 1) :: make_lists (m - 1)
let head = function [] -> assert false | x :: _ -> x
let nonempty = function [] -> false | _ :: _ -> true
let rec filter p = function [] -> [] | x :: xs -> if p x then x :: filter p xs else filter p xs
let rec map f = function [] -> [] | x :: xs -> f x :: map f xs
let rec sum = function [] -> 0 | x :: xs -> x + sum xs
let main m = assert (sum (map head (filter nonempty (make_lists m))) >= 0)
