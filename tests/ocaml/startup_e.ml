(* expect: bug within 3 *)
(* Start-up values: a list, and its head; main's assertion fails for n = 3. *)
(* run: n=3 depth=4 => failure at 9:14 (assert) *)
(* run: n=0 depth=4 => value skip *)
let rec count n = if n <= 0 then [] else n :: count (n - 1)
let head l = match l with [] -> assert false | x :: _ -> x
let items = count 2
let top = head items
let main n = assert (top + n <> 5)
