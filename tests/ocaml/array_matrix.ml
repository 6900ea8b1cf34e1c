(* expect: safe up to 10 *)
(* Arrays: an n x n matrix made by Array.make_matrix (each row an array of its own),
   filled by two nested `for` loops with m.(i).(j) <- i + j, then checked symmetric and
   its trace summed. *)
(* run: n=3 depth=10 => value skip *)
(* run: n=0 depth=4 => value skip *)
let fill m n =
  for i = 0 to n - 1 do
    for j = 0 to n - 1 do
      m.(i).(j) <- i + j
    done
  done

let main n =
  if n > 0 && n <= 3 then begin
    let m = Array.make_matrix n n 0 in
    fill m n;
    for i = 0 to n - 1 do
      for j = 0 to n - 1 do
        assert (m.(i).(j) = m.(j).(i))
      done
    done;
    let trace = ref 0 in
    for i = 0 to n - 1 do
      trace := !trace + m.(i).(i)
    done;
    assert (!trace = n * (n - 1))
  end
