(* expect: bug within 3 *)
(* Top-level references whose element type is a weak type variable, fixed only by later
   uses (`pending` by `schedule`'s callers, `last` by `main`): OCaml's `'_weak1 list ref`.
   The scheduler runs the pending jobs oldest first; the bug: the count is not above
   `n + 1` when `n <= 0`. *)
(* run: n=3 depth=6 => value 4 *)
(* run: n=0 depth=6 => failure at 26:3 (assert) *)
let pending = ref []
let last = ref []
let count = ref 0

let schedule job = pending := job :: !pending

let rec run_all jobs =
  match jobs with
  | [] -> ()
  | job :: rest -> run_all rest; job ()

let main n =
  schedule (fun () -> count := !count + n);
  schedule (fun () -> count := !count + 1);
  last := (fun x -> x + n) :: !last;
  run_all !pending;
  pending := [];
  (match !last with [] -> () | f :: _ -> assert (f 0 = n));
  assert (!count > n + 1 || n > 0);
  !count
