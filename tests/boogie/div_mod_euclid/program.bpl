// Boogie's div and mod are Euclidean: 0 <= a mod b < |b| (constant divisors keep it linear).
procedure {:entrypoint} main(a: int)
{
  assert a mod 3 >= 0 && a mod 3 < 3;
  assert a == 3 * (a div 3) + a mod 3;
  assert a mod -3 >= 0 && a == -3 * (a div -3) + a mod -3;
  assert -7 div 2 == -4 && -7 mod 2 == 1;
  assert 7 div -2 == -3 && 7 mod -2 == 1;
}
