// A local of a code expression that is havocked is universally quantified: the
// expression is false when some y >= 0 gives y + g < 1, i.e. when g == 0.
var g: int;

procedure {:entrypoint} main()
{
  assume g >= 0;
  assert |{ var y: int; A: havoc y; assume y >= 0; return y + g >= 1; }|;
}
