(* expect: verified *)
(* Random.bool chooses the step of a walk kept in a top-level reference. *)
(* run: n=3 input=1 input=0 input=1 depth=6 => value skip *)
let pos = ref 0

let step () = if Random.bool () then incr pos else decr pos

let rec walk k = if k > 0 then begin step (); walk (k - 1) end

let main n =
  pos := 0;
  walk n;
  assert (n < 0 || (!pos <= n && - n <= !pos))
