// Swap two cells of a global map through a procedure; the cells are chosen by the inputs.
var a: [int]int;

procedure swap(i: int, j: int)
  modifies a;
  ensures a[i] == old(a)[j] && a[j] == old(a)[i];
{
  var t: int;
  t := a[i];
  a[i] := a[j];
  a[j] := t;
}

procedure {:entrypoint} main(i: int, j: int)
  modifies a;
{
  var x: int, y: int;
  x := a[i];
  y := a[j];
  call swap(i, j);
  assert a[i] == y && a[j] == x;
  call swap(i, j);
  assert a[i] == x;
}
