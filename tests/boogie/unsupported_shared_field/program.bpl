// Boogie lets two constructors of one datatype share a field; we do not (yet).
datatype Shape { Circle(size: int), Square(size: int) }

procedure {:entrypoint} main(s: Shape)
{
  assert s->size >= 0;
}
