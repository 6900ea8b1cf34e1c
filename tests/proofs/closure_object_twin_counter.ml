(* expect: verified *)
(* Fresh set (30 Nov), closure object: a counter record whose incr/decr closures update two ref cells kept in the relation twice = 2 * count. *)
type counter = {
  incr : unit -> unit;
  decr : unit -> unit;
  get : unit -> int;
  consistent : unit -> bool;
}

let make_counter start =
  let count = ref start in
  let twice = ref (2 * start) in
  { incr = (fun () -> count := !count + 1; twice := !twice + 2);
    decr = (fun () -> count := !count - 1; twice := !twice - 2);
    get = (fun () -> !count);
    consistent = (fun () -> !twice = 2 * !count) }

let main n m =
  if n >= 0 && n < 20 && m >= 0 && m < 20 then begin
    let c = make_counter n in
    for _ = 1 to m do c.incr () done;
    assert (c.consistent ());
    for _ = 1 to n do c.decr () done;
    assert (c.consistent ());
    assert (c.get () = m)
  end
