// A map over an uninterpreted type: x may be neither a nor b, where M holds anything.
type T;
const unique a: T;
const unique b: T;
var M: [T]int;

procedure {:entrypoint} main(x: T)
  modifies M;
{
  M[a] := 1;
  M[b] := 2;
  assert M[x] == 1 || M[x] == 2;
}
