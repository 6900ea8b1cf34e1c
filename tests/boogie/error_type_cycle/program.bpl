type A = B;
type B = A;
var x: A;
procedure {:entrypoint} main() { }
