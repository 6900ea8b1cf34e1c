// Sum of an array of ones in a loop with a checked invariant.
procedure {:entrypoint} main()
{
  var a: [int]int;
  var i: int, s: int;
  a[0] := 1; a[1] := 1; a[2] := 1;
  i := 0; s := 0;
  while (i < 3)
    invariant s == i;
  {
    s := s + a[i];
    i := i + 1;
  }
  assert s == 3;
}
