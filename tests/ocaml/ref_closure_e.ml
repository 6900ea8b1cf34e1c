(* expect: bug within 1 *)
(* run: n=4 depth=1 => failure at 8:3 (assert) *)
(* run: n=3 depth=1 => value skip *)
let cb = ref (fun x -> x)
let register k = cb := (fun x -> x + k)
let main n =
  register n;
  assert (!cb 1 <> 5)
