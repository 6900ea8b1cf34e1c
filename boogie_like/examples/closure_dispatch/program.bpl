// Defunctionalized higher-order code: one datatype for the arrow type Int -> Int,
// one constructor per function name, fields = captured values. Applying a
// variable is a dispatch: one guarded call per candidate, never a dispatcher.
//   let inc x = x + 1
//   let add k x = x + k          (add k is a closure capturing k)
//   let comp f g x = f (g x)
//   let twice f x = f (f x)
//   Main (n:Int) : Int :
//     let c = if n > 0 then add n else comp inc inc in
//     let r = twice c 0 in assert (r >= 2); r
datatype Clo { K_inc(), K_add(K_add.k: int), K_comp(K_comp.f: Clo, K_comp.g: Clo) }

procedure {:entrypoint} main(n: int) returns (r: int)
{
  var c: Clo;
  if (n > 0) {
    c := K_add(n);
  } else {
    c := K_comp(K_inc(), K_inc());
  }
  call {:source 11, 13} r := twice(c, 0);
  assert {:source 11, 29} r >= 2;
}

procedure inc(x: int) returns (r: int)
{
  r := x + 1;
}

procedure add(k: int, x: int) returns (r: int)
{
  r := x + k;
}

procedure comp(f: Clo, g: Clo, x: int) returns (r: int)
{
  var t: int;
  if (g is K_inc) {
    call {:source 4, 23} t := inc(x);
  } else if (g is K_add) {
    call {:source 4, 23} t := add(g->K_add.k, x);
  } else if (g is K_comp) {
    call {:source 4, 23} t := comp(g->K_comp.f, g->K_comp.g, x);
  } else {
    assume false;
  }
  if (f is K_inc) {
    call {:source 4, 20} r := inc(t);
  } else if (f is K_add) {
    call {:source 4, 20} r := add(f->K_add.k, t);
  } else if (f is K_comp) {
    call {:source 4, 20} r := comp(f->K_comp.f, f->K_comp.g, t);
  } else {
    assume false;
  }
}

procedure twice(f: Clo, x: int) returns (r: int)
{
  var t: int;
  if (f is K_inc) {
    call {:source 5, 21} t := inc(x);
  } else if (f is K_add) {
    call {:source 5, 21} t := add(f->K_add.k, x);
  } else if (f is K_comp) {
    call {:source 5, 21} t := comp(f->K_comp.f, f->K_comp.g, x);
  } else {
    assume false;
  }
  if (f is K_inc) {
    call {:source 5, 18} r := inc(t);
  } else if (f is K_add) {
    call {:source 5, 18} r := add(f->K_add.k, t);
  } else if (f is K_comp) {
    call {:source 5, 18} r := comp(f->K_comp.f, f->K_comp.g, t);
  } else {
    assume false;
  }
}
