(* expect: bug within 1 *)
(* As param_shadow.ml, but the first assertion expects `pick` to see its first `a`
   (wrong for every n: the second `a` shadows it). *)
(* run: n=3 depth=8 => failure at 10:3 (assert) *)
let pick (a : int) (f : int -> int) (a : int) = f a

let second (x : int) (y, _) x = x + y - y

let main n =
  assert (pick (n + 100) (fun v -> v * 2) n = 2 * (n + 100));
  assert (second (n + 7) (n + 1, n + 2) n = n);
  0
