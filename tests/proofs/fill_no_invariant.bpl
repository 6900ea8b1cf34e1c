// expect: verified (by the Horn clauses over one cell of the map: the loop's summary is linear there)
// Fill a map with zeros by a loop without a user invariant, then read one cell back.
procedure {:entrypoint} main(n: int, k: int)
{
  var a: [int]int;
  var i: int;
  i := 0;
  while (i < n)
  {
    a[i] := 0;
    i := i + 1;
  }
  if (0 <= k && k < n) {
    assert a[k] == 0;
  }
}
