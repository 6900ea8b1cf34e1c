(* expect: verified *)
(* Fresh set (30 Nov), accumulator reversal: reverses a list with a tail-recursive accumulator and checks the result has the same length and the same sum as the input. Proved with the elements' product `i * k` abstracted (src/vc/horn_products.rs): exact, with the hand-written `len` and `sum` beside it, Spacer found nothing within 60 s. *)
let rec rev_acc acc l =
  match l with
  | [] -> acc
  | x :: rest -> rev_acc (x :: acc) rest

let rec sum l =
  match l with
  | [] -> 0
  | x :: rest -> x + sum rest

let rec len l =
  match l with
  | [] -> 0
  | _ :: rest -> 1 + len rest

let main n k =
  if n >= 0 && n < 20 then begin
    let xs = List.init n (fun i -> i * k - 3) in
    let ys = rev_acc [] xs in
    assert (len ys = len xs);
    assert (len ys = n);
    assert (sum ys = sum xs)
  end
