(* expect: verified *)
(* `if` without `else`, `begin ... end`, `;`, `incr` on a top-level reference. *)
(* run: n=1 depth=1 => value skip *)
let counter = ref 0
let tick () = incr counter
let main n =
  if n > 0 then begin tick (); tick () end;
  assert (!counter <> 2 || n > 0)
