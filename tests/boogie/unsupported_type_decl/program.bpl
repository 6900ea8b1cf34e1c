type T;
procedure {:entrypoint} main() { }
