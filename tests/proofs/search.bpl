// expect: verified
// Linear search for a key: when found, the index holds the key.
procedure find(a: [int]int, n: int, key: int) returns (r: int)
{
  var i: int;
  i := 0; r := -1;
  while (i < n)
  {
    if (a[i] == key) { r := i; return; }
    i := i + 1;
  }
}
procedure {:entrypoint} main(a: [int]int, n: int, key: int)
{
  var r: int;
  call r := find(a, n, key);
  if (r >= 0) { assert a[r] == key; assert r < n; }
}
