var m: [int]int;
procedure {:entrypoint} main() { assert m[true] == 0; }
