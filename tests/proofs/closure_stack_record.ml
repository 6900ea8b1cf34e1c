(* expect: verified *)
(* Fresh set (28 Nov), a stack "object": a record of three closures over two cells, the
   elements as a list and their count, kept in sync by push and pop; pop on an empty
   stack raises Empty, which the caller expects only when it popped more than it
   pushed.
   Proved since 29 Nov (second session): the two cells are allocated once per run (in
   `new_stack`, called once), so they are globals of their own (`lower::single_cells`). *)
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
        count := !count - 1;
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
