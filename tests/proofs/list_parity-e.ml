(* expect: bug within 3 *)
(* list_parity.ml shifting by k instead of 2 k: an odd k makes every element odd. *)
let rec evens n = if n <= 0 then [] else (2 * n) :: evens (n - 1)

let rec map f l = match l with [] -> [] | x :: t -> f x :: map f t

let rec filter p l =
  match l with
  | [] -> []
  | x :: t -> if p x then x :: filter p t else filter p t

let rec all_even l =
  match l with
  | [] -> true
  | x :: t -> x mod 2 = 0 && all_even t

let main n k =
  let shifted = map (fun x -> x + k) (evens n) in
  let large = filter (fun x -> x > k) shifted in
  assert (all_even large)
