(* expect: verified *)
(* Issue 33, "every element is bounded" (the least- and greatest-element measures): a
   countdown n, n - 1, ..., 1 is walked by a hand-written iter applying a closure that
   asserts each element lies in 1 .. cap; the list is built under the comparison
   n <= 0, and the caller knows n <= cap. *)
let rec countdown n = if n <= 0 then [] else n :: countdown (n - 1)

let rec iter f l = match l with [] -> () | x :: rest -> f x; iter f rest

let main n cap = if n <= cap then iter (fun x -> assert (x >= 1 && x <= cap)) (countdown n)
