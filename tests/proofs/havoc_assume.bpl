// expect: verified
// Nondeterministic inputs by havoc and assume inside a loop: the total only grows.
procedure {:entrypoint} main(n: int)
{
  var x: int;
  var total: int;
  var i: int;
  total := 0;
  i := 0;
  while (i < n)
  {
    havoc x;
    assume x >= 1;
    total := total + x;
    i := i + 1;
  }
  assert total >= i;
}
