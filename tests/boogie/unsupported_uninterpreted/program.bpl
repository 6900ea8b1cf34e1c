function f(x: int): int;
procedure {:entrypoint} main() { }
