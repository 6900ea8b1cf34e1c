// expect: bug
// nested: the inner loop changes t, which the outer loop's invariant pretends is fixed
procedure {:entrypoint} main(n: int)
  requires n >= 0;
{
  var i: int, j: int, t: int;
  i := 0; t := 0;
  while (i < n)
    invariant i >= 0;
  {
    j := 0;
    while (j < 2)
      invariant j >= 0;
    {
      t := t + 1;
      j := j + 1;
    }
    i := i + 1;
  }
  assert t <= 3;
}
