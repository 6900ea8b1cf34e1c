(* expect: bug within 3 *)
(* `add n` is a partial application: applying it is one call of `add`, as applying the
   closure `fun (y:Int) -> n + y` of the twin is one call. *)
let add x y = x + y
let rec iter f k x = if k <= 0 then x else iter f (k - 1) (f x)
let main n = if n >= 0 then assert (iter (add 2) n 0 < 4)
