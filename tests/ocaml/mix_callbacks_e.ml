(* expect: bug within 4 *)
(* As mix_callbacks, but every callback is assumed to be called: not when `Exit` is
   raised (`n <= 1`), four calls deep (`fire`, `run_all`, `run_all`, the callback). *)
(* run: n=5 depth=5 => value 2 *)
(* run: n=1 depth=4 => failure at 18:3 (assert) *)
(* run: n=1 depth=3 => cut off at depth 3, call at 9:58 *)
let handlers = ref []
let on f = handlers := f :: !handlers
let rec run_all l = match l with [] -> () | f :: rest -> f (); run_all rest
let fire () = try run_all !handlers; true with Exit -> false

let main n =
  let count = ref 0 in
  on (fun () -> incr count);
  on (fun () -> if !count >= n then raise Exit);
  on (fun () -> incr count);
  let _ = fire () in
  assert (!count = 2);
  !count
