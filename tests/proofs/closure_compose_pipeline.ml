(* expect: safe *)
(* Fresh set (30 Nov), closure pipeline: applies a list of affine closures one after another and compares with a single function obtained by composing them with a fold. Not proved yet: the composed closure and the closures applied in turn agree by a fact relating two procedures (`apply (fold compose id fs) x = apply_all fs x`), no one summary. *)
let compose f g = fun x -> g (f x)

let main n x =
  if n >= 0 && n < 10 then begin
    let fs = List.init n (fun i -> fun y -> 2 * y + i) in
    let r = ref x in
    List.iter (fun f -> r := f !r) fs;
    let all = List.fold_left compose (fun y -> y) fs in
    assert (all x = !r)
  end
