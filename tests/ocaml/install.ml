(* expect: safe up to 6 *)
(* A reference holding a closure that is wrapped again and again. *)
(* run: n=2 depth=3 => value skip *)
(* run: n=-1 depth=1 => value skip *)
let f = ref (fun x -> x)
let rec install n =
  if n > 0 then begin
    let g = !f in
    f := (fun x -> g x + 1);
    install (n - 1)
  end
let main n = install n; assert (!f 0 = n || n < 0)
