procedure {:entrypoint} main(x: int) { assert x[1] == 0; }
