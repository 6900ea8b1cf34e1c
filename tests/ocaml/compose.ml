(* expect: verified *)
(* run: n=3 depth=2 => value skip *)
let compose f g x = f (g x)
let main n = assert (compose (fun x -> x + 1) (fun x -> 2 * x) n = 2 * n + 1)
