(* expect: safe up to 8 *)
(* A generator: a closure over its own cell that raises `Exit` once exhausted. `h` is the
   generator `g` itself when `n > 0`, so taking from `h` advances `g`. *)
(* run: n=1 depth=4 => value 5 *)
(* run: n=0 depth=5 => value 6 *)
let counter_gen limit =
  let i = ref 0 in
  fun () -> if !i >= limit then raise Exit else (incr i; !i)

let rec sum_all g acc =
  let next = try g () with Exit -> -1 in
  if next < 0 then acc else sum_all g (acc + next)

let main n =
  let g = counter_gen 3 in
  let h = if n > 0 then g else counter_gen 2 in
  let a = h () in
  let s = sum_all g 0 in
  assert (a = 1);
  assert (s = (if n > 0 then 5 else 6));
  s
