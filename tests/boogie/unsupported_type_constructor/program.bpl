type Seq a;
var s: Seq int;
procedure {:entrypoint} main() { }
