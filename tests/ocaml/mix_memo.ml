(* expect: safe up to 8 *)
(* A memo table per wrapped function: a cell holding a lookup closure that raises
   `Not_found` on a miss; a miss computes, then extends the closure chain. *)
(* run: n=3 depth=4 => value 6 *)
(* run: n=-2 depth=4 => value -4 *)
let make_memo f =
  let table = ref (fun k -> raise Not_found) in
  fun x ->
    try !table x
    with Not_found ->
      let v = f x in
      let old = !table in
      table := (fun k -> if k = x then v else old k);
      v

let main n =
  let calls = ref 0 in
  let double x = incr calls; x + x in
  let m = make_memo double in
  let a = m n in
  let b = m n in
  let c = m (n + 1) in
  assert (a = b && a = n + n);
  assert (c = n + n + 2);
  assert (!calls = 2);
  a
