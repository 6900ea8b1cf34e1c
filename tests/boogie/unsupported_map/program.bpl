var m: [int]int;
procedure {:entrypoint} main() { }
