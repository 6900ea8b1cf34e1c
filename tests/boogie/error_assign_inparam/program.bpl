procedure {:entrypoint} main(x: int) { x := 1; }
