procedure {:entrypoint} main(n: int)
{
  var b: bool;
  call b := even(n);
  assert n != 3 || !b;
  assert n != 3 || b == false;
  assert !(n == 3 && !b);
}
procedure even(n: int) returns (r: bool)
{
  if (n == 0) { r := true; } else { call r := odd(n - 1); }
}
procedure odd(n: int) returns (r: bool)
{
  if (n == 0) { r := false; } else { call r := even(n - 1); }
}
