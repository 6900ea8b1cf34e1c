(* expect: bug within 4 *)
(* A callback list per event source: a fresh cell holding the chain of callbacks. *)
(* run: n=3 depth=4 => value skip *)
(* run: n=9 depth=4 => failure at 20:3 (assert) *)
(* run: n=9 depth=3 => cut off at depth 3, call at 7:52 *)
let source () = ref (fun () -> ())
let register s g = let old = !s in s := (fun () -> old (); g ())
let fire s = !s ()

let main n =
  let clicks = ref 0 in
  let a = source () in
  let b = source () in
  register a (fun () -> incr clicks);
  register a (fun () -> clicks := !clicks + n);
  register b (fun () -> clicks := !clicks + 100);
  fire a;
  assert (!clicks = 1 + n);
  fire b;
  assert (!clicks <> 110)
