// As sort_exists_ensures_bug, with the promise about the element returned.
type T;
var marked: [T]bool;

procedure pick() returns (r: T);
  ensures marked[r] && (exists y: T :: marked[y]);

procedure {:entrypoint} main()
{
  var r: T;
  call r := pick();
  assert marked[r];
  assert (exists y: T :: marked[y]);
}
