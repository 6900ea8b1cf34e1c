// As sort_datatype_field_bug, with one Ref: the two cells are equal.
type Ref;
datatype Cell { Cell(owner: Ref, count: int) }

procedure make(o: Ref) returns (c: Cell)
{
  c := Cell(o, 0);
}

procedure {:entrypoint} main(p: Ref)
{
  var c: Cell;
  var d: Cell;
  call c := make(p);
  call d := make(p);
  assert c == d && c->owner == p;
}
