(* expect: bug within 5 *)
(* A composition built by a fold whose step returns a function: the composed function is
   `(x + 1) * 2`, which is 8 at 3, and the assertion forgets it. *)
(* run: n=3 depth=30 => failure at 15:3 (assert) *)
(* run: n=0 depth=30 => value skip *)
let app g = let h = g 1 in h 2

let add x y = x + y

let compose_all fs = List.fold_right (fun f acc -> fun x -> acc (f x)) fs Fun.id

let main n =
  assert (app add = 3);
  let k = compose_all [ (fun x -> x + 1); (fun x -> x * 2) ] in
  assert (k n <> 8)
