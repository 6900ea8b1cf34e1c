// A linked list in maps (next, val: one heap array per field). `sum` walks three cells.
// The list 1 -> 2 -> 3 -> null is built; the assertion on the sum is wrong (it is 6).
var next: [int]int;
var val: [int]int;
const null: int;
axiom null == 0;

procedure sum(p: int) returns (s: int)
{
  var t: int;
  if (p == null) {
    s := 0;
  } else {
    call t := sum(next[p]);
    s := val[p] + t;
  }
}

procedure {:entrypoint} main()
  modifies next, val;
{
  var s: int;
  next[1] := 2; next[2] := 3; next[3] := null;
  val[1] := 1; val[2] := 2; val[3] := 3;
  call s := sum(1);
  assert s != 6;
}
