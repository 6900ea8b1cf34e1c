// A map passed as a parameter and returned updated (call by value: the caller's copy is
// unchanged until it takes the result).
procedure put(m: [int]bool, k: int) returns (r: [int]bool)
{
  r := m[k := true];
}

procedure {:entrypoint} main(k: int, j: int)
{
  var m: [int]bool, n: [int]bool;
  assume !m[k] && !m[j];
  call n := put(m, k);
  assert !m[k];
  assert n[j] == m[j];
}
