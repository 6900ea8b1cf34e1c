// Without {:entrypoint}, the entry is `main`.
procedure helper() { }
procedure main(x: int)
{
  assert x * x != 49;
}
