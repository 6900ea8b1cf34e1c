// Int lists are an ordinary datatype declared by the lowering.
//   let rec range n = if n <= 0 then [] else n :: range (n - 1)
//   let rec sum l = if is_empty l then 0 else hd l + sum (tl l)
//   Main (n:Int) : Int : let s = sum (range n) in assert (s != 6); s
datatype IntList { nil(), cons(head: int, tail: IntList) }

procedure {:entrypoint} main(n: int) returns (s: int)
{
  var l: IntList;
  call {:source 4, 34} l := range(n);
  call {:source 4, 30} s := sum(l);
  assert {:source 4, 46} s != 6;
}

procedure range(n: int) returns (l: IntList)
{
  var rest: IntList;
  if (n <= 0) {
    l := nil();
  } else {
    call {:source 1, 51} rest := range(n - 1);
    l := cons(n, rest);
  }
}

procedure sum(l: IntList) returns (s: int)
{
  var t: int;
  if (l is nil) {
    s := 0;
  } else {
    call {:source 2, 50} t := sum(l->tail);
    s := l->head + t;
  }
}
