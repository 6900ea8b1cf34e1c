(* expect: bug within 3 *)
(* list_rev_stats.ml dropping the last element when one is left: length and sum change. *)
type stats = { len : int; total : int }

let rec rev_onto acc l = if l = [] then acc else if List.tl l = [] then acc else rev_onto (List.hd l :: acc) (List.tl l)

let rec stats l =
  match l with
  | [] -> { len = 0; total = 0 }
  | x :: rest ->
      let s = stats rest in
      { len = s.len + 1; total = s.total + x }

let rec countdown n = if n <= 0 then [] else (n - 2) :: countdown (n - 1)

let main n =
  let l = countdown n in
  let before = stats l in
  let after = stats (rev_onto [] l) in
  assert (after.len = before.len);
  assert (after.total = before.total)
