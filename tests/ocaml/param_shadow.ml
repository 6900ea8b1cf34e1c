(* expect: safe up to 8 *)
(* A parameter name bound again by a later parameter of the same function shadows the
   earlier one, as OCaml allows (each parameter is a pattern of its own: `fun a -> fun a
   -> ..`); MoCHi's `app-lin-ord3` is written so. `pick`'s body sees the second `a`;
   `second` takes `x`, a tuple, and `x` again. *)
(* run: n=3 depth=8 => value 0 *)
let pick (a : int) (f : int -> int) (a : int) = f a

let second (x : int) (y, _) x = x + y - y

let main n =
  assert (pick (n + 100) (fun v -> v * 2) n = 2 * n);
  assert (second (n + 7) (n + 1, n + 2) n = n);
  0
