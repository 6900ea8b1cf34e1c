// `const unique` constants of an uninterpreted type are distinct; a constant without
// `unique` may equal one of them.
type Color;
const unique Red: Color;
const unique Green: Color;
const Other: Color;

procedure {:entrypoint} main()
{
  assert Red != Green;
  assert Red != Other;
}
