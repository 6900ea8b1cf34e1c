(* expect: verified *)
(* A top-level reference holding a closure that captures a parameter. *)
(* run: n=7 depth=2 => value skip *)
let cb = ref (fun x -> x)
let register k = cb := (fun x -> x + k)
let main n =
  register n;
  assert (!cb 0 = n)
