// The loop zeroes a[0..3]: the quantified assertion holds.
procedure {:entrypoint} main()
{
  var a: [int]int;
  var i: int;
  i := 0;
  while (i < 3)
  {
    a[i] := 0;
    i := i + 1;
  }
  assert (forall k: int :: 0 <= k && k < 3 ==> a[k] == 0);
}
