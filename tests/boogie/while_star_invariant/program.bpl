// while with a checked invariant that the second iteration's head breaks
// (leaving after n iterations needs n + 1 activations of the loop procedure).
procedure {:entrypoint} main(n: int)
{
  var x: int;
  x := 0;
  while (x < n)
    invariant x < 2;
    free invariant x >= 0;
  {
    x := x + 2;
  }
}
