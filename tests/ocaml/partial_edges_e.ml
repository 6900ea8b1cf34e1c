(* expect: bug within 1 *)
(* As partial_edges.ml, but the last assertion adds c, which is wrong when c is true. *)
(* run: n=5 c=1 depth=2 => failure at 19:3 (assert) *)
(* run: n=5 c=0 depth=2 => value skip *)
let add x y = x + y
let sub x y = x - y
let add3 x y z = x + y + z
let f () x = x + 1
let pick c = if c then add else sub
let main n (c:bool) =
  let g = (if c then add else sub) 1 in
  let h = f () in
  let k = pick c 2 in
  let p = (fun a b -> a * b) 3 in
  assert ((add3 1) 2 3 = 6);
  assert (h n = n + 1);
  assert (g n = (if c then 1 + n else 1 - n));
  assert (k n = (if c then 2 + n else 2 - n));
  assert (p n = 3 * n + (if c then 1 else 0))
