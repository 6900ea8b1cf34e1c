(* expect: bug within 2 *)
(* As mix_memo, but the extended table answers for every key up to `x`: `m (n - 1)` after
   `m n` is answered with `n`'s value. *)
(* run: n=3 depth=4 => failure at 24:3 (assert) *)
(* run: n=3 depth=1 => cut off at depth 1, call at 9:9 *)
let make_memo f =
  let table = ref (fun k -> raise Not_found) in
  fun x ->
    try !table x
    with Not_found ->
      let v = f x in
      let old = !table in
      table := (fun k -> if k <= x then v else old k);
      v

let main n =
  let calls = ref 0 in
  let double x = incr calls; x + x in
  let m = make_memo double in
  let a = m n in
  let b = m n in
  let c = m (n - 1) in
  assert (a = b && a = n + n);
  assert (c = n + n - 2);
  a
