(* expect: safe up to 6 *)
(* A script without `main`: top-level `let () =` and `let _ =` items run in order at
   start-up, and the program is them. *)
(* run: depth=30 => value skip *)
let counter = ref 0

let bump k = counter := !counter + k

let () = bump 2

let _ = bump 3; !counter

let log = ref []

let () = List.iter (fun x -> log := x :: !log) [ 1; 2; 3 ]

let () =
  assert (!counter = 5);
  assert (!log = [ 3; 2; 1 ])
