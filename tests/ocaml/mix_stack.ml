(* expect: safe up to 8 *)
(* A stack in a cell; `pop` raises `Empty` on an empty stack, which ends `drain`. `t` is
   `s` itself when `n > 0`, else a stack of its own. *)
(* run: n=1 depth=5 => value 6 *)
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
  assert (total = (if n > 0 then 6 else 4));
  assert (match !s with [] -> true | _ -> false);
  total
