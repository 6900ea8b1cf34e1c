// Maps with bool keys and bool values; equality of maps is extensional.
procedure {:entrypoint} main(b: bool)
{
  var m: [bool]int, n: [bool]int;
  m[true] := 1; m[false] := 2;
  n[false] := 2; n[true] := 1;
  assert m == n;
  assert m[b] == (if b then 1 else 2);
}
