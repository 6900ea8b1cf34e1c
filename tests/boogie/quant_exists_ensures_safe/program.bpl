// exists in an ensures, used correctly: the witness index is read back.
var m: [int]int;
procedure fill() returns (j: int)
modifies m;
ensures (exists k: int :: m[k] == 7 && k == j);
{
  j := 4;
  m[j] := 7;
}
procedure {:entrypoint} main()
modifies m;
{
  var j: int;
  call j := fill();
  assert m[j] == 7;
}
