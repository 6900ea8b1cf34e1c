// ... but it is a function: equal arguments give equal results, in any procedure, and
// a quantifier-free axiom about it holds everywhere.
function f(int, bool): int;
function g(x: int): bool;
const c: int;
axiom f(c, true) == 7;

procedure get(a: int, b: bool) returns (r: int)
{
  r := f(a, b);
}

procedure {:entrypoint} main(x: int, y: int)
{
  var r: int;
  call r := get(x, g(y));
  assert x == y ==> r == f(y, g(x));
  call r := get(c, true);
  assert r == 7;
}
