// A bodiless setter whose frame condition is a quantifier over the map's keys
// (SMACK's `$malloc` style): the encoder writes it as M == old(M)[p := M[p]].
var M: [int]int;

procedure set(p: int, v: int);
  modifies M;
  ensures M[p] == v;
  ensures (forall x: int :: x == p || M[x] == old(M)[x]);

procedure helper()
  modifies M;
{
  call set(1, 5);
  call set(2, 7);
}

procedure {:entrypoint} main()
  modifies M;
{
  assume M[3] == 0;
  call helper();
  assert M[1] + M[2] + M[3] != 12;
}
