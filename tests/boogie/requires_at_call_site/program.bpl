// A checked precondition is an assertion at the call site (CORRAL): the call with a
// negative argument fails there, before the callee runs.
procedure {:entrypoint} main(x: int)
{
  var y: int;
  call y := sqrt_floor(x);
}
procedure sqrt_floor(a: int) returns (r: int)
  requires a >= 0;
  ensures r * r <= a;
{
  r := 0;
  while ((r + 1) * (r + 1) <= a) { r := r + 1; }
}
