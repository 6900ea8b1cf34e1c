// expect: bug
// Two counters moved in step by a goto loop: their sum is constant.
procedure {:entrypoint} main(n: int)
  requires n >= 0;
{
  var up: int, down: int;
  up := 0; down := n;
  goto loop;
loop:
  goto step, exit;
step:
  assume down > 0;
  up := up + 1;
  down := down - 2;
  goto loop;
exit:
  assume down <= 0;
  assert up + down == n;
  assert up == n;
}
