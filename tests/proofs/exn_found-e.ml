(* expect: bug within 3 *)
(* exn_found.ml raising the index after the match: the handler's fact fails. *)
exception Found of int

let rec search table i n target =
  if i >= n then ()
  else if table i = target then raise (Found (i + 1))
  else search table (i + 1) n target

let main n target =
  let table j = 3 * j + 1 in
  try
    search table 0 n target;
    assert (target < 1 || target > 3 * n - 2 || (target - 1) mod 3 <> 0)
  with Found i -> assert (0 <= i && i < n && 3 * i + 1 = target)
