(* expect: safe up to 8 *)
(* Looking a cell up by identity in a list of cells; a top-level reference compared with
   `==` against cells passed in; `=` on references to references compares the innermost
   contents. *)
(* run: n=5 depth=3 => value skip *)
(* run: n=2 depth=3 => value skip *)
let seen = ref 0
let rec mem_cell c l = match l with [] -> false | d :: rest -> d == c || mem_cell c rest
let is_seen r = r == seen

let main n =
  let a = ref n in
  let b = ref n in
  let l = if n > 3 then [a; seen] else [a] in
  assert (mem_cell a l);
  assert (not (mem_cell b l));
  assert (mem_cell seen l = (n > 3));
  assert (is_seen seen && not (is_seen a));
  let ra = ref a in
  let rb = ref b in
  assert (ra = rb && ra != rb);
  b := n + 1;
  assert (ra <> rb)
