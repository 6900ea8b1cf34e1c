// A list input and the failure of `hd []`: the lowering asserts that the list
// is not empty before selecting `->head` or `->tail`.
//   let rec nth l n = if n <= 0 then hd l else nth (tl l) (n - 1)
//   Main (l:List, n:Int) : Int : nth l n
datatype IntList { nil(), cons(head: int, tail: IntList) }

procedure {:entrypoint} main(l: IntList, n: int) returns (r: int)
{
  call {:source 4, 30} r := nth(l, n);
}

procedure nth(l: IntList, n: int) returns (r: int)
{
  if (n <= 0) {
    assert {:source 3, 40} !(l is nil);
    r := l->head;
  } else {
    assert {:source 3, 52} !(l is nil);
    call {:source 3, 48} r := nth(l->tail, n - 1);
  }
}
