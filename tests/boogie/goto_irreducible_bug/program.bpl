// An irreducible graph: both A and B are entered from the start.
procedure {:entrypoint} main(n: int)
{
  var x: int;
  x := 0;
  goto A, B;
A:
  x := x + 1;
  goto B;
B:
  x := x + 2;
  if (x > 4) { goto Done; }
  goto A;
Done:
  assert x != 6;
  return;
}
