// expect: verified
// Initialise a[0..n) to 7, then check an arbitrary index in range.
procedure {:entrypoint} main(n: int, k: int)
  requires 0 <= k && k < n;
{
  var a: [int]int;
  var i: int;
  i := 0;
  while (i < n)
    invariant 0 <= i;
    invariant (forall j: int :: 0 <= j && j < i ==> a[j] == 7);
  {
    a[i] := 7;
    i := i + 1;
  }
  assert a[k] == 7;
}
