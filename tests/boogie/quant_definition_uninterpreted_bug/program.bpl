// A quantifier over an uninterpreted type is accepted when the axiom defines a function
// (it is then the function's body, no quantifier is left): same(a, b) is a == b, false
// for two unique constants.
type Ref;
const unique a: Ref;
const unique b: Ref;
function same(x: Ref, y: Ref) returns (bool);
axiom (forall x: Ref, y: Ref :: same(x, y) <==> x == y);

procedure {:entrypoint} main()
{
  assert same(a, a);
  assert same(a, b);
}
