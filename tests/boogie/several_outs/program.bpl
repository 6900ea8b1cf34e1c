// A call with two outs; the checked precondition holds at the call (guarded).
procedure {:entrypoint} main(a: int, b: int)
{
  var q, r: int;
  if (b > 0) {
    call q, r := divmod(a, b);
    assert a == q * b + r;
    assert q != 3 || r != 2;
  }
}
procedure divmod(a: int, b: int) returns (q: int, r: int)
  requires b > 0;
  ensures 0 <= r && r < b;
{
  q := a div b;
  r := a mod b;
}
