(* expect: verified *)
(* The prelude: applied directly, its functions are primitives (no depth). *)
(* run: a=-3 b=4 depth=0 => value skip *)
let main a b =
  print_int a; print_string "checked"; print_newline ();
  ignore (succ b);
  assert (min a b <= max a b && abs (a - b) = max a b - min a b && pred (succ a) = a)
