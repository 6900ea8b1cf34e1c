// A free precondition is not checked at the call; the callee assumes it.
procedure {:entrypoint} main(x: int)
{
  var y: int;
  call y := half(x);
}
procedure half(a: int) returns (r: int)
  free requires a mod 2 == 0;
{
  r := a div 2;
  assert r + r == a;
}
