(* expect: safe *)
(* Fresh set (28 Nov), a stack "object" as a tuple of closures over two cells: the
   height and the sum of the (non-negative) elements pushed. A push of a negative
   number is refused; popping subtracts the last element pushed, remembered in a
   third cell holding a function from height to element.
   VERIFIED since `x mod 3 = 0` is encoded as a divisibility test (about 35 s on a quiet
   machine, too close to the budget to assert under a loaded CI: the header says safe). *)
let make () =
  let height = ref 0 in
  let total = ref 0 in
  let elems = ref (fun (_ : int) -> 0) in
  let push x =
    if x >= 0 then begin
      let h = !height + 1 in
      let before = !elems in
      elems := (fun i -> if i = h then x else before i);
      height := h;
      total := !total + x
    end
  in
  let pop () =
    if !height > 0 then begin
      let top = !elems !height in
      height := !height - 1;
      total := !total - top
    end
  in
  let check () = assert (!height >= 0 && !total >= 0 && (!height > 0 || !total = 0)) in
  (push, pop, check)

let rec run (push, pop, check) n x =
  if n > 0 then begin
    if x mod 3 = 0 then pop () else push x;
    check ();
    run (push, pop, check) (n - 1) (x + 1)
  end

let main n x = run (make ()) n x
