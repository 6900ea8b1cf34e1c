(* expect: bug within 3 *)
(* closure_pending.ml with the composition skipping the last step registered. *)
let pending = ref []

let register f = pending := f :: !pending

let rec compose fs = match fs with [] -> (fun v -> v) | [ _ ] -> (fun v -> v) | f :: rest -> let g = compose rest in fun v -> f (g v)

let main n d =
  pending := [];
  for _ = 1 to n do
    register (fun v -> v + d)
  done;
  let acc = ref 0 in
  List.iter (fun f -> acc := f !acc) !pending;
  let once = compose !pending 0 in
  assert (!acc = once);
  if d >= 0 then assert (once >= 0)
