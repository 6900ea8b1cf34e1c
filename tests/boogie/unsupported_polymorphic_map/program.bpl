var m: <a>[a]int;
procedure {:entrypoint} main() { }
