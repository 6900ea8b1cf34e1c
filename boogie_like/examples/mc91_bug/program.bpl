// McCarthy 91 with a wrong specification (mc91-e): for n = 102 the result is 92.
//   let rec mc91 n = if n > 100 then n - 10 else mc91 (mc91 (n + 11))
//   Main (n:Int) : Unit : if n <= 102 then assert (mc91 n == 91) else skip
procedure {:entrypoint} main(n: int)
{
  var r: int;
  if (n <= 102) {
    call {:source 3, 44} r := mc91(n);
    assert {:source 3, 37} r == 91;
  }
}

procedure mc91(n: int) returns (r: int)
{
  var t: int;
  if (n > 100) {
    r := n - 10;
  } else {
    call {:source 1, 59} t := mc91(n + 11);
    call {:source 1, 53} r := mc91(t);
  }
}
