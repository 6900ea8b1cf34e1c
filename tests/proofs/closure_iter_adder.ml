(* expect: safe *)
(* Iterating a partially applied adder: `iter n f x` applies f n times; with
   f = add 3 the result from 0 is 3 n. A second iteration, through a closure that
   composes the adder with itself, adds 6 per step. The plain clauses have one relation
   for `iter`, which must tell the two closures apart by their constructors (proved in
   1-11 s, not reliably); the clauses with known closures specialised
   (`lower --emit chc --known-closures`) have a copy of `iter` per closure, each with a
   linear summary (Spacer: under a second). *)
let add a b = a + b

let rec iter n f x = if n <= 0 then x else iter (n - 1) f (f x)

let twice f = fun x -> f (f x)

let main n =
  if n >= 0 then begin
    assert (iter n (add 3) 0 = 3 * n);
    assert (iter n (twice (add 3)) 1 = 6 * n + 1)
  end
