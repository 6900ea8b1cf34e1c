(* expect: bug within 3 *)
(* Like exn_callback, but the check expects the early stop for every n >= 1. *)
(* run: n=1 depth=8 => failure at 14:18 (assert) *)
(* run: n=5 depth=8 => value skip *)
let stop_at = ref (fun (x : int) -> if x = 2 then raise Exit)

let rec countdown n = if n > 0 then (!stop_at n; countdown (n - 1))

let pick n =
  try countdown n; (fun x -> x + 1) with Exit -> (fun x -> x + 2)

let main n =
  let f = pick n in
  if n >= 1 then assert (f 0 = 2) else assert (f 0 = 1)
