(* expect: safe *)
(* Fresh set (28 Nov), an index search by an exception carrying the index: a for loop
   over 0 .. n - 1 raises `Hit i` at the first i whose square reaches the target; the
   search returns an option, and the caller checks the index against the table.
   Not proved yet: SAFE UP TO DEPTH 8 with the proof engines given 60 s. *)
exception Hit of int

let square i = i * i

let find_first n target =
  try
    for i = 0 to n - 1 do
      if square i >= target then raise (Hit i)
    done;
    None
  with Hit i -> Some i

let main n target =
  match find_first n target with
  | Some i ->
      assert (i >= 0 && i < n);
      assert (square i >= target)
  | None -> assert (n <= 0 || square (n - 1) < target)
