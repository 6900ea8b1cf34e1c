(* expect: safe up to 6 *)
(* Top-level values computed at start-up: a sum, a partial application, and a closure made
   with a local polymorphic function (as MoCHi's flow.ml). *)
(* run: n=3 depth=6 => value skip *)
let rec sum n = if n <= 0 then 0 else n + sum (n - 1)
let total = sum 4
let add k x = x + k
let add_total = add total
let f = let id x = x in let _ = id (fun (_ : int) -> (assert false : int)) in fun x -> x + 1
let main n = assert (add_total n = n + 10); assert (f n > n)
