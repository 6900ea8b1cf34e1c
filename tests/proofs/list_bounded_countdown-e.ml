(* expect: bug *)
(* list_bounded_countdown.ml with n = cap + 1 allowed: the first element exceeds cap. *)
let rec countdown n = if n <= 0 then [] else n :: countdown (n - 1)

let rec iter f l = match l with [] -> () | x :: rest -> f x; iter f rest

let main n cap = if n <= cap + 1 then iter (fun x -> assert (x >= 1 && x <= cap)) (countdown n)
