// expect: safe (the invariant fails at the 8th iteration, beyond recursion bound 5: never VERIFIED)
procedure {:entrypoint} main(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i <= 7;
  {
    i := i + 1;
  }
}
