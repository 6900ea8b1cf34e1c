// if (*) and havoc: the entry's choices are inputs of the witness.
var g: int;
procedure {:entrypoint} main()
{
  var x: int;
  havoc x;
  if (*) { g := x; } else { g := 0 - x; }
  assert g != 7 || x > 0;
}
