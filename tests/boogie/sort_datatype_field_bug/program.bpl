// A datatype with a field of an uninterpreted type: two cells built from the same Ref
// are equal, from different ones not.
type Ref;
datatype Cell { Cell(owner: Ref, count: int) }

procedure make(o: Ref) returns (c: Cell)
{
  c := Cell(o, 0);
}

procedure {:entrypoint} main(p: Ref, q: Ref)
{
  var c: Cell;
  var d: Cell;
  call c := make(p);
  call d := make(q);
  assert c == d;
}
