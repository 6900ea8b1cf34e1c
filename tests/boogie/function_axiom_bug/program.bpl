// The axiom fixes f at 0 only; the callee's assumption about f(1) does not follow.
type Ref;
function f(r: Ref): int;
function h(Ref, int): Ref;
const unique a: Ref;
const unique b: Ref;
axiom f(a) == 0 && h(a, 0) == b;

procedure check(r: Ref)
{
  assert f(r) == 0;
}

procedure {:entrypoint} main()
{
  call check(a);
  call check(h(a, 0));
}
