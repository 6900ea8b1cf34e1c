(* expect: verified *)
(* Aliasing chosen by an input between two top-level references: `pick n` returns one of
   them, a write through it changes exactly that one. *)
(* run: n=1 depth=1 => value 5 *)
(* run: n=0 depth=1 => value 5 *)
let a = ref 0
let b = ref 0
let pick n = if n > 0 then a else b

let main n =
  let r = pick n in
  r := 5;
  assert (!a + !b = 5);
  assert (if n > 0 then !a = 5 else !b = 5);
  !r
