(* expect: safe up to 8 *)
(* Callbacks kept in a top-level reference to a list of closures; one of them raises
   `Exit`, which stops the callbacks after it (the list runs newest first). *)
(* run: n=5 depth=5 => value 2 *)
(* run: n=1 depth=4 => value 1 *)
let handlers = ref []
let on f = handlers := f :: !handlers
let rec run_all l = match l with [] -> () | f :: rest -> f (); run_all rest
let fire () = try run_all !handlers; true with Exit -> false

let main n =
  let count = ref 0 in
  on (fun () -> incr count);
  on (fun () -> if !count >= n then raise Exit);
  on (fun () -> incr count);
  let completed = fire () in
  assert (if completed then !count = 2 else !count = 1);
  !count
