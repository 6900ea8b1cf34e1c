(* expect: bug within 3 *)
(* exn_find_index.ml raising the next index: the found square can be the one past the end. *)
exception Hit of int

let square i = i * i

let find_first n target =
  try
    for i = 0 to n - 1 do
      if square i >= target then raise (Hit (i + 1))
    done;
    None
  with Hit i -> Some i

let main n target =
  match find_first n target with
  | Some i ->
      assert (i >= 0 && i < n);
      assert (square i >= target)
  | None -> assert (n <= 0 || square (n - 1) < target)
