(* expect: bug within 3 *)
(* As topref_stored, but the list's two entries are one cell: `touch` adds 2, not 1. *)
(* run: n=3 depth=3 => failure at 17:3 (assert) *)
(* run: n=3 depth=2 => cut off at depth 2, call at 11:69 *)
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
  assert (!(fst both) = 2);
  !handler 4
