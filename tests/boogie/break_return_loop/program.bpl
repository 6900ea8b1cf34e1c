// break and return inside a loop: the early return skips the final assertion but not
// the checked postcondition.
procedure {:entrypoint} main(n: int) returns (r: int)
  ensures r < 50;
{
  var i: int;
  i := 0;
  r := 0;
  while (true)
  {
    if (i >= n) { break; }
    if (i == 4) { r := 100; return; }
    i := i + 1;
  }
  r := i;
  assert r < 5;
}
