procedure {:entrypoint} main(x: int) returns (s: int)
{
  if (x < 0) { s := -1; }
  else if (x == 0) { s := 0; }
  else if (x < 10) { s := 1; }
  else { s := 2; }
  assert s != 2 || x < 100;
}
