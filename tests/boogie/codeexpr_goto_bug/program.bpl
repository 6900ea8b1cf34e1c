// A code expression with two blocks after a `goto`: it is true when every path that its
// `assume`s let through returns true. For g == 5 the path through B returns false.
var g: int;

procedure {:entrypoint} main()
{
  assert |{ A: goto B, C; B: assume g > 0; return g != 5; C: assume g <= 0; return true; }|;
}
