// A free ensures is not checked in the callee but assumed by the caller.
procedure {:entrypoint} main()
{
  var r: int;
  call r := lie();
  assert r == 5;
}
procedure lie() returns (r: int)
  free ensures r == 5;
{
  r := 3;
}
