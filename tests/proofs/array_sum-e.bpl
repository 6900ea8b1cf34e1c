// expect: bug
// Fill a map with nonnegative values, then sum a prefix: the sum is nonnegative (both
// loops state the fact about the map they rely on).
procedure {:entrypoint} main(n: int)
  requires n >= 0;
{
  var a: [int]int;
  var i: int, s: int, v: int;
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant (forall j: int :: 0 <= j && j < i ==> a[j] >= 0);
  {
    havoc v;
    assume v >= -1;
    a[i] := v;
    i := i + 1;
  }
  i := 0; s := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant s >= 0;
    invariant (forall j: int :: 0 <= j && j < n ==> a[j] >= 0);
  {
    s := s + a[i];
    i := i + 1;
  }
  assert s >= 0;
}
