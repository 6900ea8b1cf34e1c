(* expect: verified *)
(* Fresh set (28 Nov), reversal with an accumulator keeps length and sum: a hand-written
   reversal with `if` and List.hd / List.tl, and a record of the length and the sum
   computed by one recursive pass, compared field by field. Proved once the calls of
   List.hd and List.tl are unfolded before the lists are projected out. *)
type stats = { len : int; total : int }

let rec rev_onto acc l = if l = [] then acc else rev_onto (List.hd l :: acc) (List.tl l)

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
