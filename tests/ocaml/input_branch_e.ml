(* expect: bug within 4 *)
(* Like input_branch, but the walk is claimed never to reach 3: it does when the first three
   Random.bool () are true. *)
(* run: n=3 input=1 input=1 input=1 depth=6 => failure at 15:3 (assert) *)
(* run: n=3 input=1 input=0 input=1 depth=6 => value skip *)
let pos = ref 0

let step () = if Random.bool () then incr pos else decr pos

let rec walk k = if k > 0 then begin step (); walk (k - 1) end

let main n =
  pos := 0;
  walk n;
  assert (!pos <> 3)
