// A code expression under `!` in an `assume` (CORRAL's codeexpr/t): the assertion is
// reachable when g != 0.
var g: int;

procedure {:entrypoint} main()
{
  if (*) {
    assume !|{ A: return g == 0; }|;
    assert false;
  }
}
