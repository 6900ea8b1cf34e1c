(* expect: verified *)
(* Issue 33, "every element satisfies P": a hand-written map and filter keep the input's
   parity (all even in, all even out), proved with the odd-count measure the program's
   parity test (`mod 2`) asks for. *)
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
  let shifted = map (fun x -> x + 2 * k) (evens n) in
  let large = filter (fun x -> x > k) shifted in
  assert (all_even large)
