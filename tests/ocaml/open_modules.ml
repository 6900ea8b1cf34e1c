(* expect: safe up to 6 *)
(* Stdlib modules opened three ways: `open` at the top, `let open M in` and `M.(e)`; a
   binding after the `open` shadows the module's function of that name. *)
(* run: n=3 depth=40 => value skip *)
(* run: n=-2 depth=40 => value skip *)
open Option

let describe o = if is_some o then get o else 0

let main n =
  let l = [ n; n + 1; n + 2 ] in
  let total = let open List in fold_left ( + ) 0 (map (fun x -> x * 2) l) in
  assert (total = 6 * n + 6);
  assert (List.(length (rev l)) = 3);
  let open List in
  let length = 7 in
  assert (length = 7);
  assert (describe (Some n) = n && describe None = 0);
  assert (exists (fun x -> x = n + 2) l)
