(* expect: verified *)
(* A bank whose operations return results; errors are a variant. *)
(* run: amt=30 dst=2 depth=30 => value skip *)
(* run: amt=-1 dst=1 depth=30 => value skip *)
type error = Insufficient of int | Unknown_account of int | Negative

type account = { id : int; mutable balance : int }

let find accts id =
  match List.find_opt (fun a -> a.id = id) accts with
  | Some a -> Ok a
  | None -> Error (Unknown_account id)

let check_amount amt = if amt < 0 then Error Negative else Ok amt

let withdraw accts id amt =
  Result.bind (check_amount amt) (fun amt ->
    Result.bind (find accts id) (fun a ->
      if a.balance < amt then Error (Insufficient a.balance)
      else begin a.balance <- a.balance - amt; Ok a.balance end))

let transfer accts src dst amt =
  match withdraw accts src amt with
  | Error e -> Error e
  | Ok _ ->
    (match find accts dst with
     | Ok d -> d.balance <- d.balance + amt; Ok ()
     | Error e -> Error e)

let total accts = List.fold_left (fun s a -> s + a.balance) 0 accts

let main amt dst =
  let accts = [ { id = 1; balance = 100 }; { id = 2; balance = 50 } ] in
  let before = total accts in
  let r = transfer accts 1 dst amt in
  (match r with
   | Ok () -> assert (total accts = before)
   | Error (Insufficient b) -> assert (b < amt)
   | Error Negative -> assert (amt < 0)
   | Error (Unknown_account i) -> assert (i <> 1 && i <> 2));
  List.iter (fun a -> assert (a.balance >= 0)) accts
