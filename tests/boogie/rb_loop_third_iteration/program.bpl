// The loop fails in its third iteration only (i == 2 there): that iteration runs in the
// third activation of main#loop, so the bug needs recursion bound 3.
procedure {:entrypoint} main(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
  {
    assert i != 2;
    i := i + 1;
  }
}
