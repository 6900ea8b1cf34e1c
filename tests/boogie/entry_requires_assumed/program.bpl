// The entry's preconditions are assumed (its inputs satisfy them).
procedure {:entrypoint} main(x: int, y: int)
  requires x > 0 && y > x;
{
  assert y > 1;
}
