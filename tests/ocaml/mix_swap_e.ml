(* expect: bug within 1 *)
(* As mix_swap, but the swap is assumed always to move 2 into `x`: not when the pair's two
   cells are one (`n <= 0`). *)
(* run: n=1 depth=1 => value 2 *)
(* run: n=0 depth=1 => failure at 13:3 (assert) *)
let swap (a, b) = let t = !a in a := !b; b := t

let main n =
  let x = ref 1 in
  let y = ref 2 in
  let p = if n > 0 then (x, y) else (x, x) in
  swap p;
  assert (!x = 2);
  !x
