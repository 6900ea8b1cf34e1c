(* expect: bug within 4 *)
(* run: n=3 depth=4 => failure at 11:25 (assert) *)
(* run: n=2 depth=4 => value skip *)
let f = ref (fun x -> x)
let rec install n =
  if n > 0 then begin
    let g = !f in
    f := (fun x -> g x + 1);
    install (n - 1)
  end
let main n = install n; assert (!f 0 < 3)
