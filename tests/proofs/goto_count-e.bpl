// expect: bug
// A goto loop counting the steps down to zero: the steps taken equal the start.
procedure {:entrypoint} main(n: int)
  requires n >= 0;
{
  var x: int, steps: int;
  x := n; steps := 0;
  goto head;
head:
  goto body, done;
body:
  assume x > 0;
  x := x - 1;
  steps := steps + 2;
  goto head;
done:
  assume !(x > 0);
  assert steps == n;
  assert x == 0;
}
