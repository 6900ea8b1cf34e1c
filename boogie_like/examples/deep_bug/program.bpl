// A bug that needs depth 12: climb(k, n) runs at depth k + 1 and fails at
// level 11 when n > 11. With --max-depth 10 the answer is "safe up to 10".
procedure {:entrypoint} main(n: int) returns (r: int)
{
  call {:source 2, 3} r := climb(0, n);
}

procedure climb(level: int, n: int) returns (r: int)
{
  if (level >= n) {
    r := level;
    return;
  }
  assert {:source 6, 5} level < 11;
  call {:source 7, 5} r := climb(level + 1, n);
}
