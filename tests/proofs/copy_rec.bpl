// expect: verified
// A recursive copy of a map prefix with a global destination and `modifies`; the caller
// reads back one copied cell.
var dst: [int]int;

procedure copy(src: [int]int, i: int, n: int)
  modifies dst;
{
  if (i < n) {
    dst[i] := src[i];
    call copy(src, i + 1, n);
  }
}

procedure {:entrypoint} main(src: [int]int, n: int)
  modifies dst;
{
  call copy(src, 0, n);
  if (n > 0) {
    assert dst[0] == src[0];
  }
}
