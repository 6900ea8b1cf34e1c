// A bodiless allocator whose ensures owns a range of addresses, called from a
// helper procedure; the assertion fails on the second allocation.
var next: int;
function owner(int) returns (int);

procedure alloc(n: int) returns (p: int);
  requires n > 0;
  modifies next;
  ensures p == old(next);
  ensures next == old(next) + n;
  ensures (forall x: int :: p <= x && x < p + n ==> owner(x) == p);

procedure two_blocks() returns (a: int, b: int)
  modifies next;
{
  call a := alloc(4);
  call b := alloc(4);
}

procedure {:entrypoint} main()
  modifies next;
{
  var a: int;
  var b: int;
  assume next == 100;
  call a, b := two_blocks();
  assert owner(b + 1) == a;
}
