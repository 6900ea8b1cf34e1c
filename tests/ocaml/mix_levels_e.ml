(* expect: bug within 3 *)
(* As mix_levels, but an even level passes its parent's cell down instead of its own: for
   an even `n >= 2` the top cell is incremented twice. *)
(* run: n=2 depth=3 => failure at 21:3 (assert) *)
(* run: n=1 depth=3 => value 1 *)
exception Found of int

let rec descend n outer =
  let cell = ref 0 in
  outer := !outer + 1;
  if n <= 0 then raise (Found !outer)
  else begin
    descend (n - 1) (if n mod 2 = 0 then outer else cell);
    cell := 100
  end

let main n =
  let top = ref 0 in
  let got = try descend n top; -1 with Found v -> v in
  assert (got >= 1);
  assert (!top = 1);
  got
