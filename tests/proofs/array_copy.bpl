// expect: verified
// Copy b[0..n) into a, then compare at an index in range.
procedure copy(b: [int]int, n: int) returns (a: [int]int)
  ensures (forall j: int :: 0 <= j && j < n ==> a[j] == b[j]);
{
  var i: int;
  i := 0;
  while (i < n)
    invariant (forall j: int :: 0 <= j && j < i ==> a[j] == b[j]);
  {
    a[i] := b[i];
    i := i + 1;
  }
}
procedure {:entrypoint} main(b: [int]int, n: int, k: int)
  requires 0 <= k && k < n;
{
  var a: [int]int;
  call a := copy(b, n);
  assert a[k] == b[k];
}
