// expect: verified
// Nested loops: the inner loop runs m times per outer iteration; the count never drops.
procedure {:entrypoint} main(n: int, m: int)
{
  var i: int;
  var j: int;
  var c: int;
  i := 0;
  c := 0;
  while (i < n)
  {
    j := 0;
    while (j < m)
    {
      c := c + 1;
      j := j + 1;
    }
    i := i + 1;
  }
  assert c >= 0;
}
