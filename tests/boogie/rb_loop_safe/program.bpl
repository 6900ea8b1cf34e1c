// Bounded by the recursion bound only: the assertion fails in the eleventh iteration,
// beyond recursion bound 4 (and the loop runs at most 3 iterations there).
var total: int;
procedure {:entrypoint} main(n: int)
  modifies total;
{
  var i: int;
  i := 0;
  total := 0;
  while (i < n)
  {
    total := total + i;
    assert i < 10;
    i := i + 1;
  }
  assert total >= 0;
}
