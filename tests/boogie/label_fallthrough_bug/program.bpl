// Labels without goto: the blocks fall through into each other (each reached once, inlined).
procedure {:entrypoint} main(x: int)
{
  var y: int;
  y := x;
L1:
  y := y + 1;
L2:
  y := y * 2;
  assert y != 10;
}
