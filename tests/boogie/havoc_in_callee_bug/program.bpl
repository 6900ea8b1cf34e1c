// havoc in a callee: the value comes from the replay's search (a literal of the program).
procedure {:entrypoint} main()
{
  var v: int;
  call v := pick();
  assert v != 42;
}
procedure pick() returns (r: int)
{
  havoc r;
  assume r > 40 && r < 45;
}
