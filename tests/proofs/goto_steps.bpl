// expect: verified (by the Horn clauses with calling contexts: a forward invariant of the loop)
// A goto loop counting its steps: when it leaves, the step count equals the index.
procedure {:entrypoint} main(n: int)
{
  var i: int;
  var steps: int;
  i := 0;
  steps := 0;
  goto Head;
Head:
  goto Body, Exit;
Body:
  assume i < n;
  i := i + 1;
  steps := steps + 1;
  goto Head;
Exit:
  assume !(i < n);
  assert steps == i;
  assert n < 0 || steps == n;
}
