(* expect: verified *)
(* Counter objects: two closures over a fresh cell per `make`; objects never share it. *)
(* run: n=0 depth=1 => value 4 *)
(* run: n=3 depth=1 => value 5 *)
let make () =
  let c = ref 0 in
  ((fun () -> incr c; !c), (fun () -> !c))

let main n =
  let (inc_o, get_o) = make () in
  let (inc_p, get_p) = make () in
  let a = inc_o () in
  let b = inc_o () in
  let c = inc_p () in
  assert (get_o () = 2);
  assert (get_p () = 1);
  if n > 0 then inc_p () + n else a + b + c
