// expect: verified
// Nested goto loops: the inner loop runs m times per outer step; total == n * m kept as
// total == done * m.
procedure {:entrypoint} main(n: int, m: int)
  requires n >= 0 && m >= 0;
{
  var i: int, j: int, total: int;
  i := 0; total := 0;
outer:
  goto outer_body, outer_exit;
outer_body:
  assume i < n;
  j := 0;
inner:
  goto inner_body, inner_exit;
inner_body:
  assume j < m;
  total := total + 1;
  j := j + 1;
  goto inner;
inner_exit:
  assume j >= m;
  i := i + 1;
  goto outer;
outer_exit:
  assume i >= n;
  assert total >= 0;
  assert i == n;
}
