procedure {:entrypoint} main(x: int)
{
  if (x > 0) {
    assume false;
    assert false;
  }
}
