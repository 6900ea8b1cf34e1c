(* expect: bug *)
(* The failing twin of closure_compose_pipeline.ml, fresh set (30 Nov), closure pipeline: applies a list of affine closures one after another and compares with a single function obtained by composing them with a fold. *)
let compose f g = fun x -> f (g x)

let main n x =
  if n >= 0 && n < 10 then begin
    let fs = List.init n (fun i -> fun y -> 2 * y + i) in
    let r = ref x in
    List.iter (fun f -> r := f !r) fs;
    let all = List.fold_left compose (fun y -> y) fs in
    assert (all x = !r)
  end
