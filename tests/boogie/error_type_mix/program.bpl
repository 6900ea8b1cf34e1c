// Two different types are never equal.
type Ref;
procedure {:entrypoint} main(r: Ref) { assert r != 0; }
