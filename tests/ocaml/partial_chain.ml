(* expect: verified *)
(* Partial application chains, over-application and a prelude function applied partially. *)
(* run: n=5 depth=2 => value skip *)
(* run: n=-5 depth=2 => value skip *)
let add3 x y z = x + y + z
let compose f g x = f (g x)

let main n =
  let f = add3 1 in
  let g = f 2 in
  let clamp = max 0 in
  assert (g n = n + 3);
  assert (f n 0 = n + 1);
  assert (compose (add3 1 1) (add3 0 0) n = n + 2);
  assert (clamp n >= 0)
