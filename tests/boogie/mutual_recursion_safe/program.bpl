procedure {:entrypoint} main(n: int)
  requires n >= 0;
{
  var b: bool;
  call b := even(n);
  assert b <==> n mod 2 == 0;
}
procedure even(n: int) returns (r: bool)
{
  if (n == 0) { r := true; } else { call r := odd(n - 1); }
}
procedure odd(n: int) returns (r: bool)
{
  if (n == 0) { r := false; } else { call r := even(n - 1); }
}
