procedure {:entrypoint} main() { goto Nowhere; }
