// The twin of call_out_global_bug: after `call g1 := p1(g1)` the global holds the out.
var g1: int;

procedure p1(x0: int) returns (r0: int)
{
  r0 := -1;
  g1 := 0;
}

procedure main()
{
  call g1 := p1(g1);
  assert g1 == -1;
}
