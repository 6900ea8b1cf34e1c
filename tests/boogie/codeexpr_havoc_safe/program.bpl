// As codeexpr_havoc_bug, with g >= 1: every y >= 0 gives y + g >= 1.
var g: int;

procedure {:entrypoint} main()
{
  assume g >= 1;
  assert |{ var y: int; A: havoc y; assume y >= 0; return y + g >= 1; }|;
}
