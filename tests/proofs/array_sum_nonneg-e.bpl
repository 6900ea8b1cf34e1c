// expect: bug
// Fill a map with nonnegative values, then sum a prefix: the sum is nonnegative (the
// second loop relies on the first loop's fact about the map it does not modify).
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
    assume v >= 0;
    a[i] := v;
    i := i + 1;
  }
  i := 0; s := 0;
  a[0] := -1;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant s >= 0;
  {
    s := s + a[i];
    i := i + 1;
  }
  assert s >= 0;
}
