// A chain of calls without recursion: d's body runs at depth 4, so its failure needs
// stack depth bound 4.
procedure {:entrypoint} main(x: int)
{
  call a(x);
}
procedure a(x: int) { call b(x + 1); }
procedure b(x: int) { call c(x + 1); }
procedure c(x: int) { call d(x + 1); }
procedure d(x: int) { assert x != 10; }
