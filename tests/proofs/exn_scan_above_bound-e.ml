(* expect: bug *)
(* exn_scan_above_bound.ml with the caught index bounded one too tightly: a scan that
   stops at the last element of the list fails the assertion (n = 1, bound < -4). *)
exception Above of int

let rec scan bound i l =
  match l with
  | [] -> ()
  | x :: rest -> if x > bound then raise (Above i) else scan bound (i + 1) rest

let rec all_at_most bound l =
  match l with
  | [] -> true
  | x :: rest -> x <= bound && all_at_most bound rest

let main n bound =
  let l = ref [] in
  for i = n downto 1 do l := (3 * i - 7) :: !l done;
  let len = List.length !l in
  try
    scan bound 0 !l;
    assert (all_at_most bound !l)
  with Above i -> assert (0 <= i && i < len - 1)
