(* expect: verified *)
(* Fresh set (29 Nov), a hand-written map adds 4 and a hand-written filter keeps elements
   above 10 of a list of even numbers built from `2 * seed`; every element kept is even. *)
let rec map f l = match l with [] -> [] | x :: r -> f x :: map f r
let rec filter p l = match l with [] -> [] | x :: r -> if p x then x :: filter p (r) else filter p r
let main n seed =
  let start = 2 * seed in
  let l = List.init (max n 0) (fun i -> start + (2 * i)) in
  let l2 = filter (fun x -> x > 10) (map (fun x -> x + 4) l) in
  List.iter (fun x -> assert (x mod 2 = 0)) l2
