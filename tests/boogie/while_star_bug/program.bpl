// while (*): the loop's choices are havocs inside the loop procedure; the replay finds them.
procedure {:entrypoint} main()
{
  var x: int;
  x := 0;
  while (*)
  {
    x := x + 1;
  }
  assert x < 2;
}
