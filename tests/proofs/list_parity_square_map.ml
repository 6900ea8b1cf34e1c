(* expect: verified *)
(* Fresh set (30 Nov), parity map/filter: squares a list of even numbers with a hand-written map, adds an even offset, and checks every result is still even. Proved through the parity of the product `x * x` (the clauses with products abstracted, src/vc/horn_products.rs). *)
let rec map f l =
  match l with
  | [] -> []
  | x :: rest -> f x :: map f rest

let rec all_even l =
  match l with
  | [] -> true
  | x :: rest -> x mod 2 = 0 && all_even rest

let main n k =
  if n >= 0 && n < 20 then begin
    let xs = List.init n (fun i -> 2 * (i + k)) in
    let ys = map (fun x -> x * x + 2 * k) xs in
    assert (List.length ys = n);
    assert (all_even ys)
  end
