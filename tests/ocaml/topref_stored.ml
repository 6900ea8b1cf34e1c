(* expect: safe up to 8 *)
(* Top-level references stored in a pair, a list and a closure, and a top-level reference
   holding a closure installed through a passed name; every route reaches the same cells. *)
(* run: n=3 depth=3 => value 7 *)
(* run: n=-1 depth=3 => value 3 *)
let hits = ref 0
let handler = ref (fun x -> x)
let both = (hits, handler)
let cells = [hits; hits]
let bump () = incr hits
let install h f = h := f
let rec touch l = match l with [] -> () | c :: rest -> c := !c + 1; touch rest

let main n =
  install (snd both) (fun x -> x + n);
  touch cells;
  bump ();
  let r = fst both in
  assert (!r = 3);
  !handler 4
