(* expect: bug *)
(* The failing twin of random_walk_band.ml, fresh set (30 Nov), random walk: takes n steps of -1/0/+1 chosen by Random.int, tracking the lowest and highest positions seen, and checks the position stays between them. *)
let main n start =
  if n >= 0 && n < 50 then begin
    let pos = ref start in
    let lo = ref start in
    let hi = ref start in
    for _ = 1 to n do
      if !pos < !lo then lo := !pos;
      if !pos > !hi then hi := !pos;
      pos := !pos + Random.int 3 - 1;
      assert (!lo <= !pos && !pos <= !hi)
    done;
    assert (!hi - !lo <= n)
  end
