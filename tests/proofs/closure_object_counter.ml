(* expect: verified *)
(* A counter "object": a pair of closures over one cell, one that steps it and one
   that reads it. Two counters do not share their cells. *)
let make_counter start =
  let c = ref start in
  ((fun step -> c := !c + step), (fun () -> !c))

let main a b =
  let (bump1, get1) = make_counter a in
  let (bump2, get2) = make_counter b in
  bump1 2;
  bump2 5;
  bump1 3;
  assert (get1 () = a + 5);
  assert (get2 () = b + 5)
