// Sum of an array of ones in a loop; the assertion claims the sum of 3 cells is not 3.
procedure {:entrypoint} main()
{
  var a: [int]int;
  var i: int, s: int;
  a := a[0 := 1][1 := 1][2 := 1];
  i := 0; s := 0;
  while (i < 3)
  {
    s := s + a[i];
    i := i + 1;
  }
  assert s != 3;
}
