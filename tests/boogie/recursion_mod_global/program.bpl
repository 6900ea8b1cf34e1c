// A global written without a modifies clause (CORRAL infers it).
var count: int;
procedure {:entrypoint} main(n: int)
{
  count := 0;
  call down(n);
  assert count < 4;
}
procedure down(n: int)
{
  if (n > 0) {
    count := count + 1;
    call down(n - 1);
  }
}
