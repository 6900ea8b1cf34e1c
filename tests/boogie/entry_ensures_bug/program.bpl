procedure {:entrypoint} main(x: int) returns (y: int)
  ensures y > x;
{
  y := x * 2;
}
