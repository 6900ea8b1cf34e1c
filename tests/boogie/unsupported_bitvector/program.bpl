var x: bv32;
procedure {:entrypoint} main() { }
