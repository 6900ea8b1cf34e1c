var g: int;

procedure {:entrypoint} main()
{
  assert |{ A: goto B; B: goto A; }|;
}
