(* expect: bug *)
(* The failing twin of closure_iterate_add.ml, fresh set (30 Nov), iterated partial application: applies the partially applied functions (add 3) and (add (-2)) n times each and checks the results arithmetically. *)
let add a b = a + b

let rec iterate n f x =
  if n <= 1 then x else iterate (n - 1) f (f x)

let main n x =
  if n >= 0 && n < 20 then begin
    let r = iterate n (add 3) x in
    assert (r = x + 3 * n);
    let s = iterate n (add (-2)) r in
    assert (s = x + n)
  end
