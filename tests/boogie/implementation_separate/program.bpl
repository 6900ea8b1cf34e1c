// A separate implementation with its own parameter names; contracts use the procedure's.
procedure {:entrypoint} main(k: int);
procedure twice(a: int) returns (b: int);
  ensures b == a + a;
implementation main(n: int)
{
  var m: int;
  call m := twice(n);
  assert m != 14;
}
implementation twice(x: int) returns (y: int)
{
  y := x * 2;
}
