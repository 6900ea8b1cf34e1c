// A two-index map [int,int]int (curried: [int][int]int), select and update.
var grid: [int, int]int;

procedure {:entrypoint} main(x: int, y: int)
  modifies grid;
{
  grid[x, y] := 5;
  grid[y, x] := 6;
  assert grid[x, y] == 5;
}
