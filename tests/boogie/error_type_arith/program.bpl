// An uninterpreted type has no arithmetic.
type Ref;
procedure {:entrypoint} main(r: Ref) { assert r + 1 != r; }
