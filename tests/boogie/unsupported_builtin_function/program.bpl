function {:bvbuiltin "bvadd"} add(x: int, y: int): int;
procedure {:entrypoint} main() { }
