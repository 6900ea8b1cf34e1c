(* expect: safe up to 6 *)
(* A callback stored in a top-level reference raises `Exit` to stop a countdown early;
   the handler that catches it is two calls up. The `try` returns a function. *)
(* run: n=5 depth=8 => value skip *)
(* run: n=-1 depth=8 => value skip *)
let stop_at = ref (fun (x : int) -> if x = 2 then raise Exit)

let rec countdown n = if n > 0 then (!stop_at n; countdown (n - 1))

let pick n =
  try countdown n; (fun x -> x + 1) with Exit -> (fun x -> x + 2)

let main n =
  let f = pick n in
  if n >= 2 then assert (f 0 = 2) else assert (f 0 = 1)
