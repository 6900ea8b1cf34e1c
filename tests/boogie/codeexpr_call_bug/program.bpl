// A call inside a code expression means the callee's contract and body: its checked
// `requires` is asserted there, so for g < 0 the code expression is false.
var g: int;

procedure inc(a: int) returns (r: int)
  requires a >= 0;
  ensures r > a;
{
  r := a + 1;
}

procedure {:entrypoint} main()
{
  assert |{ var t: int; A: call t := inc(g); return t == g + 1; }|;
}
