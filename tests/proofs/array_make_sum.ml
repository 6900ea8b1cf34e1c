(* expect: safe *)
(* Fresh set (29 Nov), an array made of n ones summed by a for loop gives n. Not proved
   yet: the fact "every cell holds 1" is quantified over the array's cells. *)
let main n =
  if n > 0 && n < 50 then begin
    let a = Array.make n 1 in
    let s = ref 0 in
    for i = 0 to n - 1 do s := !s + a.(i) done;
    assert (!s = n)
  end
