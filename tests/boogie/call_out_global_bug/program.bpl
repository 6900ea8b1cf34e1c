// A call whose out is a global the callee modifies: after the call the global holds the
// out (-1), not the callee's last write (0). Found by the Boogie fuzz campaign (issue 33,
// seed 330821): the VC took the callee's global over the out and answered VERIFIED.
var g1: int;

procedure p1(x0: int) returns (r0: int)
{
  r0 := -1;
  g1 := 0;
}

procedure main()
{
  call g1 := p1(g1);
  assert g1 == 0;
}
