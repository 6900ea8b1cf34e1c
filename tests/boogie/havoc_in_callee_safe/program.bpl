procedure {:entrypoint} main()
{
  var v: int;
  call v := pick();
  assert v > 40;
}
procedure pick() returns (r: int)
{
  havoc r;
  assume r > 40 && r < 45;
}
