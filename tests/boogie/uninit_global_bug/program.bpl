// Globals and locals start arbitrary (Boogie's rule).
var g: int;
procedure {:entrypoint} main() returns (r: int)
{
  var x: int;
  r := x + g;
  assert r != 12;
}
