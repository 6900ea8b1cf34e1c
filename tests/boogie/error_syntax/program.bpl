procedure {:entrypoint} main() { var x: int; x := ; }
