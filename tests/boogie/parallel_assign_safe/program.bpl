procedure {:entrypoint} main(a: int, b: int)
{
  var x, y: int;
  x, y := a, b;
  x, y := y, x;
  assert x == b && y == a;
}
