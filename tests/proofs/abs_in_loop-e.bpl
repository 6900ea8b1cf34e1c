// expect: bug
// A procedure with a postcondition called in a loop over a map: the sum of absolute
// values is nonnegative.
procedure abs(x: int) returns (r: int)
  ensures r >= 0;
  ensures r == x || r == -x;
{
  if (x < 0) { r := -x; } else { r := x; }
}

procedure {:entrypoint} main(a: [int]int, n: int)
{
  var i: int;
  var s: int;
  var v: int;
  i := 0;
  s := 0;
  while (i < n)
  {
    call v := abs(a[i]);
    s := s + v - 1;
    i := i + 1;
  }
  assert s >= 0;
}
