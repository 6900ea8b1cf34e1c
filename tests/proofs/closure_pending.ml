(* expect: verified *)
(* Fresh set (28 Nov), a ref list of closures applied in turn vs composed: a loop
   registers n steps `fun v -> v + d` in a cell; they are run in turn through List.iter
   on a counter cell, and composed by recursion into one function; both give the same number,
   never negative for a non-negative step.
   Proved by the totals of nested values (the list's and the composition's
   total is the sum of the captured steps: `vc::measure`, `Measure::Total`); before, SAFE
   UP TO DEPTH 8 with the proof engines given 60 s. *)
let pending = ref []

let register f = pending := f :: !pending

let rec compose fs = match fs with [] -> (fun v -> v) | f :: rest -> let g = compose rest in fun v -> f (g v)

let main n d =
  pending := [];
  for _ = 1 to n do
    register (fun v -> v + d)
  done;
  let acc = ref 0 in
  List.iter (fun f -> acc := f !acc) !pending;
  let once = compose !pending 0 in
  assert (!acc = once);
  if d >= 0 then assert (once >= 0)
