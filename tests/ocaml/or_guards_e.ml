(* expect: bug within 5 *)
(* Or-patterns that bind variables under a `when` guard, where no value matches two of
   the alternatives; the buggy twin lets a refund exceed the credit. *)
(* run: a=0 b=0 depth=12 => value skip *)
(* run: a=1 b=-1 depth=12 => failure at 22:3 (assert) *)
type event = Coin of int | Refund of int | Select of int | Kick

type state = Idle | Paid of int

let step state ev =
  match state, ev with
  | Idle, Coin c | Paid _, Coin c when c <= 0 -> state
  | Idle, Coin c -> Paid c
  | Paid n, Coin c -> Paid (n + c)
  | Paid n, (Refund r | Select r) when r <= n + 1 -> if r = n then Idle else Paid (n - r)
  | (Idle | Paid _), _ -> state

let credit = function Idle -> 0 | Paid n -> n

let main a b =
  let s = List.fold_left step Idle [ Coin a; Coin b; Refund 2; Kick ] in
  assert (credit s >= 0);
  match s with
  | Paid n -> assert (n = max a 0 + max b 0 - 2 || n = max a 0 + max b 0)
  | Idle -> assert (max a 0 + max b 0 <= 2)
