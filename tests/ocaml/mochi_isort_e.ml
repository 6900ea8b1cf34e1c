(* expect: bug within 5 *)
(* Like mochi_isort, but `ordered` checks the increasing order the sort does not make. *)
(* run: len=2 depth=12 => failure at 20:5 (assert) *)
(* run: len=1 depth=12 => value skip *)
let nil = (0, fun (i : int) -> (assert false : int))
let cons a (len, l) = (len + 1, fun i -> if i = 0 then a else l (i - 1))
let hd (len, l) = l 0
let tl (len, l) = (len - 1, fun i -> l (i + 1))

let rec insert (x : int) ys =
  if fst ys = 0 then cons x nil
  else if x >= hd ys then cons x ys
  else cons (hd ys) (insert x (tl ys))

let rec isort xs = if fst xs <= 0 then nil else insert (hd xs) (isort (tl xs))

let rec ordered xs =
  if fst xs <= 1 then ()
  else begin
    assert (hd xs <= hd (tl xs)); ordered (tl xs) end

let main len = if len >= 0 then ordered (isort (len, fun i -> len - i))
