(* expect: bug within 3 *)
(* read_int in a loop-like recursion; the bug needs the second number read to be 42. *)
(* run: k=3 input=1 input=42 input=0 depth=5 => failure at 8:19 (assert) *)
(* run: k=3 input=42 input=1 input=0 depth=5 => value skip *)
let rec scan i k =
  if i < k then begin
    let x = read_int () in
    if i = 1 then assert (x <> 42);
    scan (i + 1) k
  end

let main k = scan 0 k
