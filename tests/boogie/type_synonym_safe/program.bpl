// Type synonyms stand for what they name, even declared after their use.
type Grid = [Index][Index]bool;
type Index = int;
var g: Grid;

procedure {:entrypoint} main(i: Index)
  modifies g;
{
  g[i][i + 1] := true;
  assert g[i, i + 1];
}
