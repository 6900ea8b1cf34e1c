// A call whose out is a global variable.
var g: int;
procedure {:entrypoint} main(x: int)
{
  call g := double(x);
  assert g != 8;
}
procedure double(a: int) returns (r: int) { r := a + a; }
