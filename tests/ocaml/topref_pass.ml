(* expect: verified *)
(* A top-level reference passed to a function as a value: `add total n` writes the one
   cell `total` names, so `!total` sees both writes. *)
(* run: n=4 depth=1 => value skip *)
(* run: n=-2 depth=1 => value skip *)
let total = ref 0
let add r v = r := !r + v

let main n =
  add total n;
  add total 1;
  assert (!total = n + 1)
