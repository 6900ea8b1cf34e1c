procedure {:entrypoint} main() { assert (forall i: int :: i == i); }
