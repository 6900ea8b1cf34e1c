(* expect: bug within 3 *)
(* closure_iter_adder.ml with the second iteration expected to add 6 per step from 0,
   not from 1: fails for every n >= 0. *)
let add a b = a + b

let rec iter n f x = if n <= 0 then x else iter (n - 1) f (f x)

let twice f = fun x -> f (f x)

let main n =
  if n >= 0 then begin
    assert (iter n (add 3) 0 = 3 * n);
    assert (iter n (twice (add 3)) 1 = 6 * n)
  end
