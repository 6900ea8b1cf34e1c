(* expect: bug within 1 *)
(* The callback is replaced by a partial application only for positive n. *)
(* run: n=0 depth=1 => failure at 11:3 (assert) *)
(* run: n=4 depth=1 => value skip *)
let cb = ref (fun x -> x)
let add x y = x + y

let main n =
  if n > 0 then cb := add n;
  let v = !cb 1 in
  assert (v > 1)
