// A quantifier over an uninterpreted type is refused: the type is int here, and
// `forall x: T :: x == c` holds in a one-element T but not in int.
type T;
function g(T): int;
axiom (forall x: T :: g(x) > 0);
procedure {:entrypoint} main() { }
