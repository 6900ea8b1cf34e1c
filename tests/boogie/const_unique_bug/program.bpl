const unique A: int;
const unique B: int;
const C: int;
procedure {:entrypoint} main()
{
  assert A != B;
  assert A != C;
}
