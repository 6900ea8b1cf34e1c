(* expect: bug within 1 *)
(* Start-up items run in order: the check runs before the last bump. *)
(* run: depth=30 => failure at 10:10 (assert) *)
let counter = ref 0

let bump k = counter := !counter + k

let () = bump 2

let () = assert (!counter = 5)

let _ = bump 3
