var n: Node;
procedure {:entrypoint} main() { }
