(* expect: verified *)
(* A reference to a reference: `p` points at `x`, or at `y` once redirected (when
   `n > 0`); writing through `!p` changes exactly the cell it points at. *)
(* run: n=1 depth=1 => value 7 *)
(* run: n=0 depth=1 => value 7 *)
let redirect p target = p := target
let write_through p v = !p := v

let main n =
  let x = ref 0 in
  let y = ref 0 in
  let p = ref x in
  if n > 0 then redirect p y;
  write_through p 7;
  assert (!x + !y = 7);
  assert ((!p == y) = (n > 0));
  assert (!p != x || !x = 7);
  !(!p)
