// exists in an ensures: the callee promises some index holding 7; the caller wrongly
// concludes it is index 0.
var m: [int]int;
procedure fill()
modifies m;
ensures (exists j: int :: m[j] == 7);
{
  m[4] := 7;
}
procedure {:entrypoint} main()
modifies m;
{
  call fill();
  assert m[0] == 7;
}
