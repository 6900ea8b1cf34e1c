// Boogie 3 datatypes: a list built by a recursive procedure, taken apart with `is` and `->`.
// The sum of [n, n-1, ..., 1] is not always below 6: n = 3 gives 6 (depth 4: build at
// depths 1..4, sum at 1..4).
datatype List { Nil(), Cons(head: int, tail: List) }

procedure build(n: int) returns (l: List)
{
  var rest: List;
  if (n <= 0) {
    l := Nil();
  } else {
    call rest := build(n - 1);
    l := Cons(n, rest);
  }
}

procedure sum(l: List) returns (s: int)
{
  var t: int;
  if (l is Nil) {
    s := 0;
  } else {
    call t := sum(l->tail);
    s := l->head + t;
  }
}

procedure {:entrypoint} main(n: int)
{
  var l: List;
  var s: int;
  call l := build(n);
  call s := sum(l);
  assert s < 6;
}
