// SMACK-style pointer arithmetic defined by quantified axioms (each one defines its
// function, docs/boogie.md): the loop stores i at a + 4i for i < 3, so the cells at
// a + 4 and a + 8 hold 1 and 2.
function $pa(p: int, o: int, s: int) returns (int);
axiom (forall p: int, o: int, s: int :: {$pa(p, o, s)} $pa(p, o, s) == p + o * s);
function $p2b(p: int) returns (bool);
axiom (forall i: int :: $p2b(i) <==> i != 0);
var $Mem: [int]int;

procedure {:entrypoint} main()
modifies $Mem;
{
  var a: int;
  var i: int;
  a := 100;
  i := 0;
  while (i < 3)
  {
    $Mem[$pa(a, i, 4)] := i;
    i := i + 1;
  }
  assert $p2b($Mem[$pa(a, 1, 4)]);
  assert $Mem[$pa(a, 2, 4)] == 2;
}
