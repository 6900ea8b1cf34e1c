// ping and pong call each other; started with n = 4 the failure is in ping's third
// activation (ping(4), pong(3), ping(2), pong(1), ping(0)): recursion bound 3.
procedure ping(n: int)
{
  assert n != 0;
  if (n > 0) {
    call pong(n - 1);
  }
}
procedure pong(n: int)
{
  if (n > 0) {
    call ping(n - 1);
  }
}
procedure {:entrypoint} main(n: int)
  requires n == 4;
{
  call ping(n);
}
