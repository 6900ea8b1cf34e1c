// A loop calling a procedure whose ensures uses old(g); the bug needs 3 iterations
// (loop procedure activations at depths 1..4).
var g: int;
procedure {:entrypoint} main(n: int)
  requires n > 0;
{
  var i: int;
  i := 0;
  g := 0;
  while (i < n)
    invariant i <= n;
  {
    call inc();
    i := i + 1;
  }
  assert g == n;
  assert i != 3;
}
procedure inc()
  modifies g;
  ensures g == old(g) + 1;
{
  g := g + 1;
}
