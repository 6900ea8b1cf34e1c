(* expect: bug within 1 *)
(* As loops.ml, but the running sum stops one short (`to n - 1`): wrong for every
   n >= 1, found with the first call (`sum_to 1` runs no iteration). Each iteration is
   one call deeper (docs/ocaml.md, "Loops"). *)
(* run: n=1 depth=8 => failure at 31:5 (assert) *)
(* run: n=-2 depth=8 => value 0 *)
let sum_to n =
  let total = ref 0 in
  for i = 1 to n - 1 do
    total := !total + i
  done;
  !total

let count_down n =
  let seen = ref 0 in
  for _ = n downto 1 do incr seen done;
  !seen

let gcd a b =
  let x = ref a and y = ref b in
  while !y <> 0 do
    let t = !y in
    y := !x mod !y;
    x := t
  done;
  !x

let main n =
  if n >= 0 && n <= 3 then begin
    let s = sum_to n in
    assert (2 * s = n * (n + 1));
    assert (count_down n = n);
    assert (gcd (2 * n + 2) (n + 1) = n + 1);
    s
  end else 0
