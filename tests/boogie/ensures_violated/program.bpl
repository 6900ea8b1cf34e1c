// A checked postcondition is asserted at the callee's return.
procedure {:entrypoint} main(x: int)
{
  var y: int;
  call y := abs(x);
}
procedure abs(a: int) returns (r: int)
  ensures r >= 0;
  ensures r == a || r == -a;
{
  if (a > 0) { r := a; } else { r := a; }
}
