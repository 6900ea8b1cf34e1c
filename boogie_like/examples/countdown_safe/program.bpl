// Recursion that is safe at every depth: the assertion only looks at the
// first unfolding of `sum` (n <= 0 returns 0 without recursing).
//   let rec sum n = if n <= 0 then 0 else n + sum (n - 1)
//   Main (n:Int) : Int : let r = sum n in (if n <= 0 then assert (r == 0)); r
procedure {:entrypoint} main(n: int) returns (r: int)
{
  call {:source 3, 11} r := sum(n);
  if (n <= 0) {
    assert {:source 3, 40} r == 0;
  }
}

procedure sum(n: int) returns (r: int)
{
  var s: int;
  if (n <= 0) {
    r := 0;
  } else {
    call {:source 1, 45} s := sum(n - 1);
    r := n + s;
  }
}
