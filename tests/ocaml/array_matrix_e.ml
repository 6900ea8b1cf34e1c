(* expect: bug within 5 *)
(* As array_matrix.ml, but the matrix is made by Array.make n (Array.make n 0): every
   row is the same array, so the last row written is every row and m.(0).(1) differs
   from m.(1).(0) once n >= 2 (OCaml's classic aliasing mistake). *)
(* run: n=2 depth=10 => failure at 22:9 (assert) *)
(* run: n=1 depth=10 => value skip *)
let fill m n =
  for i = 0 to n - 1 do
    for j = 0 to n - 1 do
      m.(i).(j) <- i + j
    done
  done

let main n =
  if n > 0 && n <= 3 then begin
    let m = Array.make n (Array.make n 0) in
    fill m n;
    for i = 0 to n - 1 do
      for j = 0 to n - 1 do
        (* every row is the last one: m.(i).(j) = n - 1 + j *)
        ignore i;
        assert (m.(i).(j) = m.(j).(i))
      done
    done;
    let trace = ref 0 in
    for i = 0 to n - 1 do
      trace := !trace + m.(i).(i)
    done;
    assert (!trace = n * (n - 1))
  end
