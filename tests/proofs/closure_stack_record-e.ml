(* expect: bug within 3 *)
(* closure_stack_record.ml with pop taking two off the count: size's check fails. *)
exception Empty

type stack = { push : int -> unit; pop : unit -> int; size : unit -> int }

let new_stack () =
  let items = ref [] in
  let count = ref 0 in
  let push x =
    items := x :: !items;
    count := !count + 1
  in
  let pop () =
    match !items with
    | [] -> raise Empty
    | x :: rest ->
        items := rest;
        count := !count - 2;
        x
  in
  let size () =
    assert (!count = List.length !items);
    !count
  in
  { push; pop; size }

let main pushes pops =
  let s = new_stack () in
  for i = 1 to pushes do
    s.push i
  done;
  try
    for _ = 1 to pops do
      ignore (s.pop ())
    done;
    assert (s.size () >= 0)
  with Empty -> assert (pops > pushes)
