var g: int;

procedure {:entrypoint} main()
{
  assert |{ A: g := 1; return g == 1; }|;
}
