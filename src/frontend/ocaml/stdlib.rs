//! The part of OCaml's Stdlib written in OCaml: `List`, `Option`, `Array`, `Result` and
//! `Fun` functions as OCaml source, parsed with the program and verified like user code
//! (docs/ocaml.md, "The Stdlib").
//!
//! Guarantees: [`needed`] names every definition a program uses (by a qualified name such
//! as `List.map`, `@` for `List.append`, or a short name `map` anywhere in a program that
//! opens `List`) with the ones those use, in an order where each
//! comes after what it uses; each definition behaves as OCaml 4.14's Stdlib does on the
//! subset's values (evaluation order of the callbacks, the exceptions raised: `Not_found`,
//! `Failure "hd"`, `Invalid_argument "List.nth"`, ...). Names defined here are qualified, so
//! a program cannot define or shadow them.

use super::lexer::{Tok, Token};
use crate::span::Span;

/// Each definition: its name, the definitions it uses, its source.
const DEFINITIONS: &[(&str, &[&str], &str)] = &[
    (
        "List.length",
        &[],
        "let rec List.length l = match l with [] -> 0 | _ :: r -> 1 + List.length r",
    ),
    (
        "List.hd",
        &[],
        "let List.hd l = match l with [] -> failwith \"hd\" | x :: _ -> x",
    ),
    (
        "List.tl",
        &[],
        "let List.tl l = match l with [] -> failwith \"tl\" | _ :: r -> r",
    ),
    (
        "List.rev_append",
        &[],
        "let rec List.rev_append l a = match l with [] -> a | x :: r -> List.rev_append r (x :: a)",
    ),
    (
        "List.rev",
        &["List.rev_append"],
        "let List.rev l = List.rev_append l []",
    ),
    (
        "List.append",
        &[],
        "let rec List.append l m = match l with [] -> m | x :: r -> x :: List.append r m",
    ),
    (
        "List.concat",
        &["List.append"],
        "let rec List.concat l = match l with [] -> [] | x :: r -> List.append x (List.concat r)",
    ),
    (
        "List.map",
        &[],
        "let rec List.map f l = match l with [] -> [] | x :: r -> let y = f x in y :: List.map f r",
    ),
    (
        "List.mapi",
        &[],
        "let List.mapi f l = let rec go i l = match l with [] -> [] | x :: r -> let y = f i x in y :: go (i + 1) r in go 0 l",
    ),
    (
        "List.filter",
        &[],
        "let rec List.filter p l = match l with [] -> [] | x :: r -> if p x then x :: List.filter p r else List.filter p r",
    ),
    (
        "List.fold_left",
        &[],
        "let rec List.fold_left f a l = match l with [] -> a | x :: r -> List.fold_left f (f a x) r",
    ),
    (
        "List.fold_right",
        &[],
        "let rec List.fold_right f l a = match l with [] -> a | x :: r -> f x (List.fold_right f r a)",
    ),
    (
        "List.iter",
        &[],
        "let rec List.iter f l = match l with [] -> () | x :: r -> f x; List.iter f r",
    ),
    (
        "List.iteri",
        &[],
        "let List.iteri f l = let rec go i l = match l with [] -> () | x :: r -> f i x; go (i + 1) r in go 0 l",
    ),
    (
        "List.exists",
        &[],
        "let rec List.exists p l = match l with [] -> false | x :: r -> p x || List.exists p r",
    ),
    (
        "List.for_all",
        &[],
        "let rec List.for_all p l = match l with [] -> true | x :: r -> p x && List.for_all p r",
    ),
    (
        "List.mem",
        &[],
        "let rec List.mem y l = match l with [] -> false | x :: r -> x = y || List.mem y r",
    ),
    (
        "List.nth",
        &[],
        "let List.nth l n = if n < 0 then invalid_arg \"List.nth\" else let rec go l n = match l with [] -> failwith \"nth\" | x :: r -> if n = 0 then x else go r (n - 1) in go l n",
    ),
    (
        "List.init",
        &[],
        "let List.init n f = if n < 0 then invalid_arg \"List.init\" else let rec go i = if i >= n then [] else let y = f i in y :: go (i + 1) in go 0",
    ),
    (
        "List.assoc",
        &[],
        "let rec List.assoc k l = match l with [] -> raise Not_found | (a, b) :: r -> if a = k then b else List.assoc k r",
    ),
    (
        "List.find",
        &[],
        "let rec List.find p l = match l with [] -> raise Not_found | x :: r -> if p x then x else List.find p r",
    ),
    (
        "List.assoc_opt",
        &[],
        "let rec List.assoc_opt k l = match l with [] -> None | (a, b) :: r -> if a = k then Some b else List.assoc_opt k r",
    ),
    (
        "List.find_opt",
        &[],
        "let rec List.find_opt p l = match l with [] -> None | x :: r -> if p x then Some x else List.find_opt p r",
    ),
    (
        "List.nth_opt",
        &[],
        "let List.nth_opt l n = if n < 0 then invalid_arg \"List.nth\" else let rec go l n = match l with [] -> None | x :: r -> if n = 0 then Some x else go r (n - 1) in go l n",
    ),
    (
        "List.filter_map",
        &[],
        "let rec List.filter_map f l = match l with [] -> [] | x :: r -> (match f x with None -> List.filter_map f r | Some v -> v :: List.filter_map f r)",
    ),
    (
        "List.rev_map",
        &[],
        "let List.rev_map f l = let rec go acc l = match l with [] -> acc | x :: r -> go (f x :: acc) r in go [] l",
    ),
    (
        "List.iter2",
        &[],
        "let rec List.iter2 f l1 l2 = match (l1, l2) with ([], []) -> () | (a1 :: r1, a2 :: r2) -> f a1 a2; List.iter2 f r1 r2 | (_, _) -> invalid_arg \"List.iter2\"",
    ),
    (
        "List.map2",
        &[],
        "let rec List.map2 f l1 l2 = match (l1, l2) with ([], []) -> [] | (a1 :: r1, a2 :: r2) -> let r = f a1 a2 in r :: List.map2 f r1 r2 | (_, _) -> invalid_arg \"List.map2\"",
    ),
    (
        "List.fold_left2",
        &[],
        "let rec List.fold_left2 f a l1 l2 = match (l1, l2) with ([], []) -> a | (a1 :: r1, a2 :: r2) -> List.fold_left2 f (f a a1 a2) r1 r2 | (_, _) -> invalid_arg \"List.fold_left2\"",
    ),
    (
        "List.for_all2",
        &[],
        "let rec List.for_all2 p l1 l2 = match (l1, l2) with ([], []) -> true | (a1 :: r1, a2 :: r2) -> p a1 a2 && List.for_all2 p r1 r2 | (_, _) -> invalid_arg \"List.for_all2\"",
    ),
    (
        "List.exists2",
        &[],
        "let rec List.exists2 p l1 l2 = match (l1, l2) with ([], []) -> false | (a1 :: r1, a2 :: r2) -> p a1 a2 || List.exists2 p r1 r2 | (_, _) -> invalid_arg \"List.exists2\"",
    ),
    (
        "List.combine",
        &[],
        "let rec List.combine l1 l2 = match (l1, l2) with ([], []) -> [] | (a1 :: r1, a2 :: r2) -> (a1, a2) :: List.combine r1 r2 | (_, _) -> invalid_arg \"List.combine\"",
    ),
    (
        "List.split",
        &[],
        "let rec List.split l = match l with [] -> ([], []) | (x, y) :: r -> let (rx, ry) = List.split r in (x :: rx, y :: ry)",
    ),
    (
        "List.partition",
        &["List.rev"],
        "let List.partition p l = let rec part yes no l = match l with [] -> (List.rev yes, List.rev no) | x :: r -> if p x then part (x :: yes) no r else part yes (x :: no) r in part [] [] l",
    ),
    (
        "List.flatten",
        &["List.concat"],
        "let List.flatten l = List.concat l",
    ),
    (
        "List.concat_map",
        &["List.rev"],
        "let List.concat_map f l = let rec aux f acc l = match l with [] -> List.rev acc | x :: r -> let xs = f x in aux f (List.rev_append xs acc) r in aux f [] l",
    ),
    (
        "List.find_map",
        &[],
        "let rec List.find_map f l = match l with [] -> None | x :: r -> (match f x with Some _ as result -> result | None -> List.find_map f r)",
    ),
    (
        "List.filteri",
        &["List.rev"],
        "let List.filteri p l = let rec aux i acc l = match l with [] -> List.rev acc | x :: r -> aux (i + 1) (if p i x then x :: acc else acc) r in aux 0 [] l",
    ),
    (
        "List.mem_assoc",
        &[],
        "let rec List.mem_assoc k l = match l with [] -> false | (a, _) :: r -> a = k || List.mem_assoc k r",
    ),
    (
        "List.remove_assoc",
        &[],
        "let rec List.remove_assoc k l = match l with [] -> [] | ((a, _) as pair) :: r -> if a = k then r else pair :: List.remove_assoc k r",
    ),
    (
        "List.sort",
        &[],
        "let List.sort cmp l = let rec insert x l = match l with [] -> [x] | y :: r -> if cmp x y <= 0 then x :: l else y :: insert x r in let rec sort l = match l with [] -> [] | x :: r -> insert x (sort r) in sort l",
    ),
    (
        "List.stable_sort",
        &["List.sort"],
        "let List.stable_sort cmp l = List.sort cmp l",
    ),
    (
        "List.sort_uniq",
        &["List.sort"],
        "let List.sort_uniq cmp l = let rec dedup l = match l with x :: y :: r -> if cmp x y = 0 then dedup (x :: r) else x :: dedup (y :: r) | l -> l in dedup (List.sort cmp l)",
    ),
    ("Fun.id", &[], "let Fun.id x = x"),
    ("Fun.const", &[], "let Fun.const c _ = c"),
    ("Fun.flip", &[], "let Fun.flip f x y = f y x"),
    (
        "Result.bind",
        &[],
        "let Result.bind r f = match r with Ok v -> f v | Error e -> Error e",
    ),
    (
        "Result.map",
        &[],
        "let Result.map f r = match r with Ok v -> Ok (f v) | Error e -> Error e",
    ),
    (
        "Result.map_error",
        &[],
        "let Result.map_error f r = match r with Error e -> Error (f e) | Ok v -> Ok v",
    ),
    (
        "Result.is_ok",
        &[],
        "let Result.is_ok r = match r with Ok _ -> true | Error _ -> false",
    ),
    (
        "Result.is_error",
        &[],
        "let Result.is_error r = match r with Ok _ -> false | Error _ -> true",
    ),
    (
        "Result.get_ok",
        &[],
        "let Result.get_ok r = match r with Ok v -> v | Error _ -> invalid_arg \"result is Error _\"",
    ),
    (
        "Result.value",
        &[],
        "let Result.value r default = match r with Ok v -> v | Error _ -> default",
    ),
    ("Option.some", &[], "let Option.some v = Some v"),
    (
        "Option.join",
        &[],
        "let Option.join o = match o with Some o -> o | None -> None",
    ),
    (
        "Option.to_list",
        &[],
        "let Option.to_list o = match o with None -> [] | Some v -> [v]",
    ),
    (
        "Array.fold_right",
        &[],
        "let Array.fold_right f a x = let r = ref x in for i = Array.length a - 1 downto 0 do r := f a.(i) !r done; !r",
    ),
    (
        "Array.mapi",
        &[],
        "let Array.mapi f a = let l = Array.length a in if l = 0 then [||] else let r = Array.make l (f 0 a.(0)) in for i = 1 to l - 1 do r.(i) <- f i a.(i) done; r",
    ),
    (
        "Array.sub",
        &[],
        "let Array.sub a ofs len = if ofs < 0 || len < 0 || ofs > Array.length a - len then invalid_arg \"Array.sub\" else if len = 0 then [||] else let r = Array.make len a.(ofs) in for i = 1 to len - 1 do r.(i) <- a.(ofs + i) done; r",
    ),
    (
        "Array.append",
        &[],
        "let Array.append a b = let la = Array.length a in let lb = Array.length b in if la = 0 && lb = 0 then [||] else let r = Array.make (la + lb) (if la > 0 then a.(0) else b.(0)) in for i = 0 to la - 1 do r.(i) <- a.(i) done; for i = 0 to lb - 1 do r.(la + i) <- b.(i) done; r",
    ),
    (
        "Array.blit",
        &[],
        "let Array.blit a1 o1 a2 o2 len = if len < 0 || o1 < 0 || o1 > Array.length a1 - len || o2 < 0 || o2 > Array.length a2 - len then invalid_arg \"Array.blit\" else if o1 < o2 then (for i = len - 1 downto 0 do a2.(o2 + i) <- a1.(o1 + i) done) else (for i = 0 to len - 1 do a2.(o2 + i) <- a1.(o1 + i) done)",
    ),
    (
        "Array.init",
        &[],
        "let Array.init n f = if n = 0 then [||] else if n < 0 then invalid_arg \"Array.init\" else let a = Array.make n (f 0) in for i = 1 to n - 1 do a.(i) <- f i done; a",
    ),
    (
        "Array.make_matrix",
        &[],
        "let Array.make_matrix sx sy init = let res = Array.make sx [||] in for x = 0 to sx - 1 do res.(x) <- Array.make sy init done; res",
    ),
    (
        "Array.iter",
        &[],
        "let Array.iter f a = for i = 0 to Array.length a - 1 do f a.(i) done",
    ),
    (
        "Array.iteri",
        &[],
        "let Array.iteri f a = for i = 0 to Array.length a - 1 do f i a.(i) done",
    ),
    (
        "Array.fold_left",
        &[],
        "let Array.fold_left f x a = let r = ref x in for i = 0 to Array.length a - 1 do r := f !r a.(i) done; !r",
    ),
    (
        "Array.to_list",
        &[],
        "let Array.to_list a = let rec go i res = if i < 0 then res else go (i - 1) (a.(i) :: res) in go (Array.length a - 1) []",
    ),
    (
        "Array.sort",
        &["List.sort", "Array.to_list"],
        "let Array.sort cmp a = let rec put i l = match l with [] -> () | x :: r -> a.(i) <- x; put (i + 1) r in put 0 (List.sort cmp (Array.to_list a))",
    ),
    (
        "Array.stable_sort",
        &["Array.sort"],
        "let Array.stable_sort cmp a = Array.sort cmp a",
    ),
    (
        "Array.of_list",
        &["List.length"],
        "let Array.of_list l = match l with [] -> [||] | hd :: tl -> let a = Array.make (List.length l) hd in let rec fill i l = match l with [] -> a | hd :: tl -> a.(i) <- hd; fill (i + 1) tl in fill 1 tl",
    ),
    (
        "Array.map",
        &[],
        "let Array.map f a = let l = Array.length a in if l = 0 then [||] else let r = Array.make l (f a.(0)) in for i = 1 to l - 1 do r.(i) <- f a.(i) done; r",
    ),
    (
        "Array.copy",
        &[],
        "let Array.copy a = let l = Array.length a in if l = 0 then [||] else let r = Array.make l a.(0) in for i = 1 to l - 1 do r.(i) <- a.(i) done; r",
    ),
    (
        "Array.fill",
        &[],
        "let Array.fill a ofs len v = if ofs < 0 || len < 0 || ofs > Array.length a - len then invalid_arg \"Array.fill\" else for i = ofs to ofs + len - 1 do a.(i) <- v done",
    ),
    (
        "Array.exists",
        &[],
        "let Array.exists p a = let n = Array.length a in let rec loop i = if i = n then false else if p a.(i) then true else loop (i + 1) in loop 0",
    ),
    (
        "Array.for_all",
        &[],
        "let Array.for_all p a = let n = Array.length a in let rec loop i = if i = n then true else if p a.(i) then loop (i + 1) else false in loop 0",
    ),
    (
        "Array.mem",
        &[],
        "let Array.mem x a = let n = Array.length a in let rec loop i = if i = n then false else if a.(i) = x then true else loop (i + 1) in loop 0",
    ),
    (
        "Option.get",
        &[],
        "let Option.get o = match o with Some v -> v | None -> invalid_arg \"option is None\"",
    ),
    (
        "Option.value",
        &[],
        "let Option.value o default = match o with Some v -> v | None -> default",
    ),
    (
        "Option.map",
        &[],
        "let Option.map f o = match o with None -> None | Some v -> Some (f v)",
    ),
    (
        "Option.bind",
        &[],
        "let Option.bind o f = match o with None -> None | Some v -> f v",
    ),
    (
        "Option.iter",
        &[],
        "let Option.iter f o = match o with None -> () | Some v -> f v",
    ),
    (
        "Option.fold",
        &[],
        "let Option.fold none some o = match o with None -> none | Some v -> some v",
    ),
    (
        "Option.is_some",
        &[],
        "let Option.is_some o = match o with None -> false | Some _ -> true",
    ),
    (
        "Option.is_none",
        &[],
        "let Option.is_none o = match o with None -> true | Some _ -> false",
    ),
];

/// The modules `tokens` open (`open M`, `let open M in`, `M.(e)`): each of their
/// definitions is needed wherever its short name occurs (a superset of the uses).
fn opened_modules(tokens: &[Token]) -> Vec<std::rc::Rc<str>> {
    let mut out: Vec<std::rc::Rc<str>> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let module = match (&t.tok, tokens.get(i + 1), tokens.get(i + 2)) {
            (Tok::Keyword("open"), Some(next), _) => match &next.tok {
                Tok::UIdent(m) => Some(m.clone()),
                Tok::Punct("!") => match tokens.get(i + 2).map(|t| &t.tok) {
                    Some(Tok::UIdent(m)) => Some(m.clone()),
                    _ => None,
                },
                _ => None,
            },
            (Tok::UIdent(m), Some(dot), Some(paren))
                if dot.tok == Tok::Punct(".") && paren.tok == Tok::Punct("(") =>
            {
                Some(m.clone())
            }
            _ => None,
        };
        if let Some(m) = module
            && !out.contains(&m)
        {
            out.push(m);
        }
    }
    out
}

/// The definitions `tokens` use (with the ones those use), each after the definitions it
/// uses: its source and the span of the program's first use that needs it (where traces and
/// failures inside it point).
pub fn needed(tokens: &[Token]) -> Vec<(&'static str, Span)> {
    let mut wanted: Vec<(&'static str, Span)> = Vec::new();
    let opened = opened_modules(tokens);
    for t in tokens {
        let Tok::Ident(f) = &t.tok else { continue };
        for m in &opened {
            let name = format!("{m}.{f}");
            if let Some((n, ..)) = DEFINITIONS.iter().find(|(n, ..)| **n == name)
                && !wanted.iter().any(|(w, _)| w == n)
            {
                wanted.push((n, t.span));
            }
        }
    }
    for (i, t) in tokens.iter().enumerate() {
        let name = match (&t.tok, tokens.get(i + 1), tokens.get(i + 2)) {
            (
                Tok::UIdent(m),
                Some(dot),
                Some(Token {
                    tok: Tok::Ident(f), ..
                }),
            ) if dot.tok == Tok::Punct(".") => {
                format!("{m}.{f}")
            }
            (Tok::Punct("@"), ..) => "List.append".to_string(),
            _ => continue,
        };
        if let Some((n, ..)) = DEFINITIONS.iter().find(|(n, ..)| **n == name)
            && !wanted.iter().any(|(w, _)| w == n)
        {
            wanted.push((n, t.span));
        }
    }
    // Close under use.
    let mut i = 0;
    while i < wanted.len() {
        let (name, span) = wanted[i];
        let uses = DEFINITIONS
            .iter()
            .find(|(n, ..)| *n == name)
            .map_or(&[][..], |(_, uses, _)| uses);
        for u in uses.iter() {
            if !wanted.iter().any(|(w, _)| w == u) {
                wanted.push((u, span));
            }
        }
        i += 1;
    }
    DEFINITIONS
        .iter()
        .filter_map(|(n, _, source)| {
            let (_, span) = wanted.iter().find(|(w, _)| w == n)?;
            Some((*source, *span))
        })
        .collect()
}
