var g: int;

procedure {:entrypoint} main()
{
  assert |{ A: assume g > 0; }|;
}
