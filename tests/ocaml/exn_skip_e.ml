(* expect: bug within 2 *)
(* Like exn_skip, but the check claims the count was incremented before `step` raised. *)
(* run: n=5 depth=3 => failure at 20:17 (assert) *)
(* run: n=2 depth=3 => value skip *)
exception Stop of int

let count = ref 0

let step n = if n > 3 then raise (Stop n) else n

let run n =
  try
    let v = step n in
    incr count;
    v + !count
  with Stop m -> m - !count

let main n =
  let r = run n in
  if n > 3 then assert (r = n - 1) else assert (r = n + 1)
