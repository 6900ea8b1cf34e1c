// old() of a map in an ensures; the callee's update is visible after the call; the
// caller's assertion fails when the two indices alias.
var h: [int]int;

procedure incr(p: int)
  modifies h;
  ensures h[p] == old(h[p]) + 1;
  ensures h == old(h)[p := old(h)[p] + 1];
{
  h[p] := h[p] + 1;
}

procedure {:entrypoint} main(p: int, q: int)
  modifies h;
{
  var before: int;
  before := h[q];
  call incr(p);
  assert h[q] == before;
}
