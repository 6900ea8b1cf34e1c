// `havoc` then `assume` constrains an arbitrary value; `assume` in main rules out
// inputs. With the interpreter's default havoc value (0) the callee's assume
// blocks every run with x > y: the path is infeasible, not a failure.
procedure {:entrypoint} main(x: int, y: int) returns (d: int)
{
  assume x > y;
  call {:source 4, 5} d := diff(x, y);
  assert {:source 5, 3} d > 0;
}

procedure diff(a: int, b: int) returns (d: int)
{
  var t: int;
  havoc t;
  assume t == a - b;
  d := t;
}
