(* expect: bug within 2 *)
(* As relaxed_value, but `sel` is assumed to pick its first argument for every `n`. *)
(* run: n=3 depth=2 => value 5 *)
(* run: n=0 depth=2 => failure at 18:3 (assert) *)
(* run: n=0 depth=1 => cut off at depth 1, call at 11:32 *)
let c = ref 0
let g = let id x = x in id
let k = (incr c; fun x -> x)

let main n =
  let twice = let app f x = f (f x) in app in
  let a = twice (fun x -> x + 1) n in
  let b = twice not true in
  let sel = if n > 0 then (fun x y -> x) else (fun x y -> y) in
  let s1 = sel 1 2 in
  let s2 = sel true false in
  assert (g a = n + 2 && g b);
  assert (s1 = 1 || s2);
  a
