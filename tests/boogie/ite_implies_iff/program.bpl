const K: int;
axiom K == 3;
function f(x: int): int { if x > K then x - K else K - x }
procedure {:entrypoint} main(a: int, p: bool, q: bool)
{
  assert f(a) >= 0;
  assert (p ==> q) <==> (!p || q);
  assert (p <==> q) == (q <==> p);
  assert (if p then 1 else 2) > 0;
}
