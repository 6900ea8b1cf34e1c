// `type T;` is an SMT sort, so a quantifier over it is taken as Boogie means it (any
// nonempty domain). The axiom makes g positive everywhere; distinct constants differ.
type T;
const unique a: T;
const unique b: T;
function g(T): int;
axiom (forall x: T :: g(x) > 0);

procedure {:entrypoint} main(x: T)
{
  assert g(x) > 0;
  assert a != b;
}
