(* expect: verified *)
(* Issue 33, list facts beyond length: reversal with an accumulator keeps the list's
   length and its sum (the `sum` and length measures, relational between input and
   output lists). *)
let rec countdown n = if n <= 0 then [] else n :: countdown (n - 1)

let rec rev_acc l acc =
  match l with
  | [] -> acc
  | x :: rest -> rev_acc rest (x :: acc)

let rec length l = match l with [] -> 0 | _ :: t -> 1 + length t

let rec sum l = match l with [] -> 0 | x :: t -> x + sum t

let main n k =
  let l = countdown n in
  let r = rev_acc l [k] in
  assert (length r = length l + 1);
  assert (sum r = sum l + k)
