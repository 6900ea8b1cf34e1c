(* expect: verified *)
(* A top-level reference holds a closure made by partial application. *)
(* run: n=4 depth=1 => value skip *)
(* run: n=4 depth=0 => cut off at depth 0, call at 9:9 *)
let cb = ref (fun x -> x)
let add x y = x + y

let main n =
  cb := add n;
  let v = !cb 1 in
  assert (v = n + 1)
