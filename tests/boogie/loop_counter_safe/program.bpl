var g: int;
procedure {:entrypoint} main(n: int)
  requires n > 0;
{
  var i: int;
  i := 0;
  g := 0;
  while (i < n)
    invariant i <= n;
    invariant g == i;
  {
    call inc();
    i := i + 1;
  }
  assert g == n;
}
procedure inc()
  ensures g == old(g) + 1;
{
  g := g + 1;
}
