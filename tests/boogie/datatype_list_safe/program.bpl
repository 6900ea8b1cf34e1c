// A datatype global, constructor equality and a tester: the head of a list pushed on a
// stack is what was pushed.
datatype Stack { Empty(), Push(top: int, below: Stack) }
var st: Stack;

procedure push(x: int)
  modifies st;
  ensures st->top == x;
{
  st := Push(x, st);
}

procedure {:entrypoint} main(a: int, b: int)
{
  st := Empty();
  call push(a);
  call push(b);
  assert st is Push && st->top == b;
  assert st->below == Push(a, Empty());
}
