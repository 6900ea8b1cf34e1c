// A goto loop with a nondeterministic exit inside a block procedure.
procedure {:entrypoint} main() returns (r: int)
{
  r := 0;
  goto Head;
Head:
  goto Body, Exit;
Body:
  r := r + 5;
  goto Head;
Exit:
  assert r != 10;
  return;
}
