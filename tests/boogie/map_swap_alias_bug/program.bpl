// A "swap" that writes through two indices: wrong exactly when they alias (i == j) and
// the cells differ from the written constant.
var a: [int]int;

procedure set_both(i: int, j: int)
  modifies a;
{
  a[i] := 1;
  a[j] := 2;
}

procedure {:entrypoint} main(i: int, j: int)
{
  call set_both(i, j);
  assert a[i] == 1;
}
