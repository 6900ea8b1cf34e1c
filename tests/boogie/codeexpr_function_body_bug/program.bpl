// As codeexpr_function_body_safe without the assumption: k = 0 makes `$pos(k)` false.
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
  assume k >= 0;
  assert $pos(k);
}
