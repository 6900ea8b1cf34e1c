// expect: verified
// A recursive sum 0 + 1 + ... + n with a contract; the caller relies on the ensures.
procedure sum(n: int) returns (r: int)
  requires n >= 0;
  ensures r >= n;
{
  var s: int;
  if (n == 0) {
    r := 0;
  } else {
    call s := sum(n - 1);
    r := s + n;
  }
}

procedure {:entrypoint} main(n: int)
{
  var r: int;
  if (n >= 0) {
    call r := sum(n);
    assert r >= 0;
  }
}
