(* expect: verified *)
(* A stack "object": a tuple of closures (push, pop, size) over two cells that stay in
   sync, the number of elements and a function from index to element. pop checks that
   the stack is not empty. *)
let make_stack () =
  let size = ref 0 in
  let items = ref (fun (i : int) -> 0) in
  let push v =
    let n = !size in
    let old = !items in
    items := (fun i -> if i = n then v else old i);
    size := n + 1
  in
  let pop () =
    assert (!size > 0);
    size := !size - 1;
    !items !size
  in
  let length () = !size in
  (push, pop, length)

let main a b =
  let (push, pop, length) = make_stack () in
  push a;
  push b;
  assert (length () = 2);
  let y = pop () in
  let x = pop () in
  assert (x = a && y = b && length () = 0)
