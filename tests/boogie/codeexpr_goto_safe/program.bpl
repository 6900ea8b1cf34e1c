// CORRAL's codeexpr/f1 with two blocks: every path returns true once g is 0.
var g: int;

procedure {:entrypoint} main()
  modifies g;
{
  g := 0;
  assert |{ A: goto B, C; B: assume g > 0; return false; C: assume g <= 0; return g == 0; }|;
}
