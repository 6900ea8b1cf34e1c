// As sort_quantifier_axiom_safe, but g(x) > 1 does not follow from the axiom: the
// witness gives g and x (an element of T is shown as an opaque integer).
type T;
function g(T): int;
axiom (forall x: T :: g(x) > 0);

procedure {:entrypoint} main(x: T)
{
  assert g(x) > 1;
}
