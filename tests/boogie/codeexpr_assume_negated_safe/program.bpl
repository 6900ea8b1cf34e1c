// As codeexpr_assume_negated_bug with g set to 0: the `assume` cuts every path to the
// assertion.
var g: int;

procedure {:entrypoint} main()
  modifies g;
{
  g := 0;
  if (*) {
    assume !|{ A: return g == 0; }|;
    assert false;
  }
}
