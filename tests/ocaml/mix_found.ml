(* expect: safe up to 8 *)
(* An exception carrying a reference: `find` raises `Found c` with the first cell of the
   list whose content passes the test; the handler writes through the cell it caught, which
   is `a` itself when `n > 3`. *)
(* run: n=4 depth=3 => value 19 *)
(* run: n=0 depth=3 => value 1 *)
exception Found of int ref

let rec find p l = match l with [] -> () | c :: rest -> if p !c then raise (Found c) else find p rest

let main n =
  let a = ref n in
  let b = ref (n + 1) in
  let hit = try find (fun v -> v > 3) [a; b]; ref 0 with Found c -> c in
  hit := !hit + 10;
  assert ((hit == a) = (n > 3));
  assert (n < 3 || hit == a || hit == b);
  assert (n > 2 || !hit = 10);
  !a + !b
