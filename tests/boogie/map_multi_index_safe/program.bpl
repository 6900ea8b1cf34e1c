// Updates of a two-index map through both statement and expression syntax.
var grid: [int, int]int;

procedure {:entrypoint} main(x: int, y: int)
  modifies grid;
{
  var g: [int][int]int;
  grid[x, y] := 5;
  g := grid;
  assert g[x][y] == 5;
  grid := grid[x, y + 1 := 7];
  assert grid[x, y] == 5 && grid[x, y + 1] == 7;
  g[x][y] := 1;
  assert g[x][y] == 1 && grid[x][y] == 5;
  assert g == grid[x, y := 1][x, y + 1 := g[x][y + 1]];
}
