(* expect: verified *)
(* A scan raising `Above i` at the first element above a bound, over a list made up by a
   loop; when the scan returns normally every element is at most the bound (checked by a
   second pass), and a caught index lies within the list. The proof needs the list's
   greatest element, a measure chosen because the scan compares its elements by order. *)
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
  with Above i -> assert (0 <= i && i < len)
