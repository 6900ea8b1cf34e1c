(* expect: verified *)
(* Physical equality `==` / `!=` on references: `c` is `a` itself when `n > 0`, else `b`;
   `a` and `b` are two cells holding equal contents (`=` compares contents). *)
(* run: n=1 depth=1 => value 1 *)
(* run: n=0 depth=1 => value 0 *)
let pick n a b = if n > 0 then a else b

let main n =
  let a = ref 0 in
  let b = ref 0 in
  let c = pick n a b in
  assert (a != b);
  assert (a = b);
  c := 1;
  assert (a <> b);
  if c == a then assert (!a = 1 && !b = 0) else assert (!b = 1 && !a = 0);
  assert ((c == a) = (n > 0));
  assert ((c != b) = (n > 0));
  !a
