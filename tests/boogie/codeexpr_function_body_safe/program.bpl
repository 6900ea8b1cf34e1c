// A code expression as the body of an inlined function (CORRAL's codeexpr/f3), with a
// parameter: the function is the formula.
function {:inline} $pos(n: int) returns (bool) {
|{
  var r: bool;
entry:
  r := n > 0;
  return r;
}|
}

procedure {:entrypoint} main(k: int)
{
  assume k >= 1;
  assert $pos(k);
}
