(* expect: bug within 5 *)
(* As mix_stack, but `t` is taken to be apart from `s`: wrong when `n > 0`, found once
   `drain` has emptied three elements (`pop` raises at depth 5). *)
(* run: n=1 depth=5 => failure at 20:3 (assert) *)
(* run: n=1 depth=4 => cut off at depth 4, call at 11:42 *)
(* run: n=0 depth=5 => value 4 *)
exception Empty

let push s x = s := x :: !s
let pop s = match !s with [] -> raise Empty | x :: rest -> s := rest; x
let rec drain s acc = try drain s (acc + pop s) with Empty -> acc

let main n =
  let s = ref [] in
  let t = if n > 0 then s else ref [] in
  push s 1;
  push t 2;
  push s 3;
  let total = drain s 0 in
  assert (total = 4);
  total
