(* expect: safe *)
(* Fresh set (30 Nov), closure object: a stack returned as a tuple of push/pop/check closures over a list ref and a size ref that must stay in sync. Not proved reliably yet: the popped element is the last pushed (the head of the list in the cell), a fact of the system whose lists carry their first element, which Spacer solves in about 16 s alone but only in 3 of 5 runs within the 60 s beside the other lanes. *)
exception Empty

let make_stack () =
  let items = ref [] in
  let size = ref 0 in
  let push x = items := x :: !items; size := !size + 1 in
  let pop () =
    match !items with
    | [] -> raise Empty
    | x :: rest -> items := rest; size := !size - 1; x
  in
  let in_sync () = List.length !items = !size in
  (push, pop, in_sync)

let main n k =
  if n >= 0 && n < 20 then begin
    let (push, pop, in_sync) = make_stack () in
    for i = 1 to n do push (i + k) done;
    assert (in_sync ());
    if n > 0 then assert (pop () = n + k);
    assert (in_sync ());
    let drained = ref 0 in
    (try
       while true do
         let _ = pop () in
         drained := !drained + 1
       done
     with Empty -> ());
    assert (in_sync ());
    assert (!drained = max 0 (n - 1))
  end
