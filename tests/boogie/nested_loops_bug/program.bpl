// Nested loops: each is its own recursive procedure.
procedure {:entrypoint} main(n: int)
  requires n >= 0 && n <= 3;
{
  var i, j, s: int;
  i := 0;
  s := 0;
  while (i < n) {
    j := 0;
    while (j < i) {
      s := s + 1;
      j := j + 1;
    }
    i := i + 1;
  }
  assert s != 3;
}
