// A procedure without a body havocs its outs and its modifies, then assumes its ensures.
var g: int;
procedure {:entrypoint} main()
{
  var r: int;
  g := 1;
  call r := external(5);
  assert r > 5;
  assert g == 1;
}
procedure external(a: int) returns (r: int);
  modifies g;
  ensures r > a;
  ensures g >= old(g);
