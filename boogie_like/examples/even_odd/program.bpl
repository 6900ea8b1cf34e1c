// Mutual recursion; the assertion claims that 2 is not even.
// The bug needs even(2) -> odd(1) -> even(0): depth 3.
procedure {:entrypoint} main(n: int) returns (r: bool)
{
  assume n >= 0;
  call {:source 7, 14} r := even(n);
  assert {:source 8, 3} !(r && n == 2);
}

procedure even(n: int) returns (r: bool)
{
  if (n == 0) {
    r := true;
  } else {
    call {:source 2, 40} r := odd(n - 1);
  }
}

procedure odd(n: int) returns (r: bool)
{
  if (n == 0) {
    r := false;
  } else {
    call {:source 4, 40} r := even(n - 1);
  }
}
