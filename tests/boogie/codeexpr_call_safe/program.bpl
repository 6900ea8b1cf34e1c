// CORRAL's codeexpr/f2 with an argument: the callee's body gives its out, its
// `requires` holds (g is 0).
var g: int;

procedure {:inline 1} is_zero(a: int) returns (x: bool)
  requires a >= 0;
{
  if (a == 0) {
    x := true;
  } else {
    x := false;
  }
}

procedure {:entrypoint} main()
  modifies g;
{
  g := 0;
  assert |{ var b: bool; A: call b := is_zero(g); return b; }|;
}
