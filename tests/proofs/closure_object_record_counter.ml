(* expect: verified *)
(* Fresh set (29 Nov), a counter "object" as a record of closures over one cell;
   decrements stop at zero. *)
type counter = { incr : unit -> unit; decr : unit -> unit; get : unit -> int }
let make () =
  let c = ref 0 in
  { incr = (fun () -> c := !c + 1);
    decr = (fun () -> if !c > 0 then c := !c - 1);
    get = (fun () -> !c) }
let rec drive ctr n x =
  if n > 0 then begin
    if x > 0 then ctr.incr () else ctr.decr ();
    assert (ctr.get () >= 0);
    drive ctr (n - 1) (x - 1)
  end
let main n x = drive (make ()) n x
