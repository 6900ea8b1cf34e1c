// expect: bug
// The maximum of a[0..n): no element exceeds it.
procedure {:entrypoint} main(a: [int]int, n: int, k: int)
  requires 0 < n && 0 <= k && k < n;
{
  var i: int, m: int;
  m := a[0]; i := 1;
  while (i < n)
    invariant 1 <= i;
    invariant (forall j: int :: 0 <= j && j < i ==> a[j] <= m);
  {
    if (a[i] > m) { m := a[i]; }
    i := i + 1;
  }
  assert a[k] < m;
}
