(* expect: verified *)
(* Fresh set (29 Nov), a stack "object" as a tuple of closures over a list cell and a
   size cell; the size never goes negative. *)
let make () =
  let items = ref [] and size = ref 0 in
  let push x = items := x :: !items; size := !size + 1 in
  let pop () = match !items with [] -> None | x :: r -> items := r; size := !size - 1; Some x in
  let size () = !size in
  (push, pop, size)
let rec run (push, pop, size) n x =
  if n > 0 then begin
    (if x mod 2 = 0 then ignore (pop ()) else push x);
    assert (size () >= 0);
    run (push, pop, size) (n - 1) (x + 1)
  end
let main n x = run (make ()) n x
