// A loop becomes a procedure named `main#loop1`: its Horn relation is a quoted symbol,
// and Spacer's model of it must survive the clause-by-clause re-check.
procedure {:entrypoint} main(n: int)
{
  var i: int;
  var s: int;
  i := 0; s := 0;
  while (i < n)
    invariant s >= 0;
  {
    s := s + i;
    i := i + 1;
  }
  assert s >= 0;
}
