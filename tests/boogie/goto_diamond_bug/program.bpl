procedure {:entrypoint} main(n: int) returns (r: int)
  ensures r > 0;
{
  goto Pos, Neg;
Pos:
  assume n >= 0;
  r := n;
  goto Join;
Neg:
  assume n < 0;
  r := -n;
  goto Join;
Join:
  return;
}
