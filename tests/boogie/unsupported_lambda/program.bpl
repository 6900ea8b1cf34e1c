var m: [int]int;
procedure {:entrypoint} main()
modifies m;
{
  m := (lambda i: int :: i);
}
