(* expect: bug within 4 *)
(* As mix_iterator, but `g` is assumed untouched by `h`: wrong when `n > 0`. *)
(* run: n=1 depth=4 => failure at 18:3 (assert) *)
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
  let _ = h () in
  let s = sum_all g 0 in
  assert (s = 6);
  s
