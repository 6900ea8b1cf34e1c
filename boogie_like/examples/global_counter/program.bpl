// A reference (global) incremented through calls; `check` only reads it.
//   Store: counter := 0
//   the bug needs n = 5: tick_n(5) .. tick_n(0) run at depths 1 .. 6.
var counter: int;

procedure {:entrypoint} main(n: int)
  modifies counter;
{
  assume n >= 0 && n <= 5;
  call {:source 5, 3} tick_n(n);
  assert {:source 6, 3} counter == n;
  call {:source 7, 3} tick();
  call {:source 8, 3} check();
}

procedure tick_n(n: int)
  modifies counter;
{
  if (n > 0) {
    call {:source 2, 20} tick();
    call {:source 2, 28} tick_n(n - 1);
  }
}

procedure tick()
  modifies counter;
{
  counter := counter + 1;
}

procedure {:reads counter} check()
{
  assert {:source 3, 18} counter <= 5;
}
