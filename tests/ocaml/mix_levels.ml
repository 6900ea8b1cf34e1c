(* expect: safe up to 8 *)
(* Allocation inside recursion: each level has its own cell and increments its parent's;
   the deepest level raises `Found`, which skips every level's write after its call. *)
(* run: n=3 depth=4 => value 1 *)
(* run: n=0 depth=1 => value 1 *)
exception Found of int

let rec descend n outer =
  let cell = ref 0 in
  outer := !outer + 1;
  if n <= 0 then raise (Found !outer)
  else begin
    descend (n - 1) cell;
    cell := 100
  end

let main n =
  let top = ref 0 in
  let got = try descend n top; -1 with Found v -> v in
  assert (got = 1);
  assert (!top = 1);
  got
