(* expect: bug within 1 *)
(* `let*` on options: a division by a zero divisor is `None`, which the assertion does not
   expect. *)
(* run: n=0 depth=30 => failure at 13:13 (assert) *)
(* run: n=5 depth=30 => value skip *)
let ( let* ) o f = match o with None -> None | Some x -> f x

let safe_div a b = if b = 0 then None else Some (a / b)

let main n =
  let r = let* q = safe_div 100 n in Some (q + 1) in
  match r with
  | None -> assert false
  | Some v -> assert (v > 0 || n < 0)
