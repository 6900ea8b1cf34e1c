(* expect: bug within 1 *)
(* As topref_startup, but `counter` is thought to count once per call of `main`. *)
(* run: n=2 depth=1 => failure at 16:3 (assert) *)
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
  assert (!counter <= 1);
  !limit + !counter
