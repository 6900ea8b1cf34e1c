(* expect: bug within 7 *)
(* Matrix multiplication whose inner loop stops one column short. *)
(* run: x=2 y=3 depth=30 => failure at 33:3 (assert) *)
(* run: x=0 y=0 depth=30 => failure at 33:3 (assert) *)
let make_id n = Array.init n (fun i -> Array.init n (fun j -> if i = j then 1 else 0))

let mult a b =
  let n = Array.length a in
  let m = Array.length b.(0) in
  let k = Array.length b in
  let c = Array.make_matrix n m 0 in
  for i = 0 to n - 1 do
    for j = 0 to m - 1 do
      let s = ref 0 in
      for l = 0 to k - 2 do
        s := !s + a.(i).(l) * b.(l).(j)
      done;
      c.(i).(j) <- !s
    done
  done;
  c

let trace m =
  let t = ref 0 in
  Array.iteri (fun i row -> t := !t + row.(i)) m;
  !t

let sum_all m = Array.fold_left (fun acc row -> Array.fold_left ( + ) acc row) 0 m

let main x y =
  let a = [| [| x; 1 |]; [| 0; y |] |] in
  let p = mult a (make_id 2) in
  assert (p.(0).(0) = x && p.(0).(1) = 1 && p.(1).(1) = y);
  let q = mult (make_id 2) a in
  assert (trace q = x + y);
  assert (sum_all q = x + y + 1)
