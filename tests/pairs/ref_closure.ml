(* expect: bug within 1 *)
let id x = x
let cb = ref id
let register k = cb := (fun x -> x + k)
let main n =
  register n;
  assert (!cb 1 <> 5)
