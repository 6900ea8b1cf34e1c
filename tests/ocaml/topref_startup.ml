(* expect: verified *)
(* References computed at start-up: a cell made by a function (`counter`), one whose initial
   value is a call (`limit`), and a pair of cells; `main` passes and compares them. *)
(* run: n=2 depth=2 => value 12 *)
(* run: n=0 depth=2 => value 10 *)
let make v = ref v
let counter = make 0
let limit = ref (abs (-10))
let pair = (make 1, make 2)
let step c = incr c; !c

let main n =
  if n > 0 then (ignore (step counter); ignore (step counter));
  let (x, y) = pair in
  x := !y + !x;
  assert (!(fst pair) = 3);
  !limit + !counter
