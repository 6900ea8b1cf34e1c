(* expect: bug within 3 *)
(* The reversal of list_rev_sum.ml with a slip: a one-element rest is dropped, so the
   reversed list misses the smallest element and its sum differs. *)
let rec countdown n = if n <= 0 then [] else n :: countdown (n - 1)

let rec rev_acc l acc =
  match l with
  | [] -> acc
  | [_] -> acc
  | x :: rest -> rev_acc rest (x :: acc)

let rec length l = match l with [] -> 0 | _ :: t -> 1 + length t

let rec sum l = match l with [] -> 0 | x :: t -> x + sum t

let main n k =
  let l = countdown n in
  let r = rev_acc l [k] in
  assert (sum r = sum l + k)
