// Forty nested `div`s and `mod`s: each is one IR operation (Euclidean, as SMT-LIB's),
// so the program stays the size of its text (from truncating division it was 3^40 nodes).
procedure {:entrypoint} main(a: int, b: int)
{
  var x: int;
  var y: int;
  x := ((((((((((((((((((((((((((((((((((((((((a div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2) div 2);
  y := ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((b mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1) mod 7) div 1);
  assert a < 0 || x >= 0;
  assert a >= 0 || x < 0;
  assert y >= 0 && y < 7;
}
