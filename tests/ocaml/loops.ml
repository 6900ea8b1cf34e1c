(* expect: safe up to 8 *)
(* `for` and `while` loops over references: a running sum with `for ... to`, a count
   with `downto` and an ignored index, Euclid's algorithm with `while`. Each iteration is
   one call deeper (docs/ocaml.md, "Loops"). *)
(* run: n=3 depth=8 => value 6 *)
(* run: n=-2 depth=8 => value 0 *)
let sum_to n =
  let total = ref 0 in
  for i = 1 to n do
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
