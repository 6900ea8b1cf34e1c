// Activations are counted on the call stack: the inner loop starts afresh in each outer
// iteration. The failure is in the third outer iteration (third activation of the outer
// loop) after the inner loop has left after two iterations twice (three activations
// each time, never more than three on the stack): recursion bound 3, though the inner
// loop runs eight activations in all.
procedure {:entrypoint} main()
{
  var i: int;
  var j: int;
  i := 0;
  while (i < 3)
  {
    j := 0;
    while (j < 2)
    {
      assert !(i == 2 && j == 1);
      j := j + 1;
    }
    i := i + 1;
  }
}
