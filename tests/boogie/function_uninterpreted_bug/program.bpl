// A function without a body is an arbitrary function: nothing says f(x) > x.
function f(x: int): int;

procedure {:entrypoint} main(x: int)
{
  assert f(x) > x;
}
