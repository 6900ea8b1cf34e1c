procedure {:entrypoint} main();
implementation main() { }
implementation main() { }
