// Allocation over an uninterpreted type Ref: two fresh references differ from each other
// and from null.
type Ref;
const unique null: Ref;
var alloc: [Ref]bool;

procedure new() returns (r: Ref)
  modifies alloc;
{
  assume !alloc[r] && r != null;
  alloc[r] := true;
}

procedure {:entrypoint} main()
  modifies alloc;
{
  var a: Ref;
  var b: Ref;
  alloc[null] := true;
  call a := new();
  call b := new();
  assert a != b;
  assert a != null;
}
