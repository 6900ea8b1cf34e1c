// expect: verified
// A global counter bumped by a procedure called in a loop; the loop's invariant ties it to
// the loop variable.
var count: int;

procedure incr()
  modifies count;
  ensures count == old(count) + 1;
{
  count := count + 1;
}

procedure {:entrypoint} main(n: int)
  modifies count;
{
  var i: int;
  count := 0;
  i := 0;
  while (i < n)
    invariant count == i;
  {
    call incr();
    i := i + 1;
  }
  assert n <= 0 || count == n;
}
