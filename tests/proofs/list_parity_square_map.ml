(* expect: safe *)
(* Fresh set (30 Nov), parity map/filter: squares a list of even numbers with a hand-written map, adds an even offset, and checks every result is still even. Not proved yet: the parity of `x * x + 2 k` needs the parity of a product. *)
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
