(* expect: verified *)
(* Partial application: `add n` is a closure; applying it saturates `add`, which is one
   call (building the closure costs nothing). *)
(* run: n=3 depth=2 => value skip *)
(* run: n=3 depth=1 => cut off at depth 1, call at 9:29 *)
let add x y = x + y
let twice f x = f (f x)

let main n = assert (twice (add n) 0 = 2 * n)
