//! Random Boogie programs, deterministic per seed, for the soundness fuzzer's Boogie
//! front end path ([`super::ir_oracle`] checks them).
//!
//! Guarantees: [`generate`] returns the same text for the same seed (xoshiro256++ seeded with
//! the seed); every text is a well-typed Boogie program of the subset horef-si reads
//! (`benchmarks/tests/fuzz.rs` loads thousands). The programs cover: int and bool globals
//! (left uninitialised: Boogie's rule makes them inputs), procedures with several ins and
//! outs, checked `requires` (an assertion at each call site) and `ensures` (at each return)
//! with `old(g)`, calls with several outs, recursion and mutual recursion (mostly guarded by a
//! decreasing argument, sometimes not), `while` loops with checked invariants, `if`,
//! `if (*)`, `havoc`, `assume`, `assert`, labels with `goto` (several targets, and backward
//! jumps), `return`, `div`/`mod` by constants, `if then else` expressions, `==>` and `<==>`;
//! and they lean towards *rare* failures (`x != 37`, a failure at one recursion depth).
//!
//! Every nondeterministic choice (`havoc`, `if (*)`, a `goto` with several targets) is made
//! in the entry procedure's first block, outside loops: horef-si makes exactly those
//! choices inputs of the entry, so the oracle's input grid covers every run. Below the entry
//! every local and out is assigned before it is read, and division is by non-zero
//! constants only, so a concrete run never depends on anything but the inputs.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use std::fmt::Write as _;

/// The text of the program of `seed`.
pub fn generate(seed: u64) -> String {
    Generator::new(seed).program()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
        }
    }
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// Whether the body may assign it (outs, locals, globals; not in-parameters).
    assignable: bool,
}

/// A procedure's signature, known before any body is written (so calls may go anywhere).
#[derive(Clone, Debug)]
struct Signature {
    name: String,
    params: Vec<(String, Ty)>,
    outs: Vec<(String, Ty)>,
}

/// Where a statement is written.
#[derive(Clone, Copy, Debug)]
struct Place {
    /// In the entry's first block, outside loops: nondeterminism allowed.
    prelude: bool,
    /// Nesting depth of statements.
    depth: u32,
    /// The index of the procedure being written (`None`: the entry).
    proc: Option<usize>,
}

struct Generator {
    rng: Xoshiro256PlusPlus,
    globals: Vec<(String, Ty)>,
    signatures: Vec<Signature>,
}

/// Constants that make failures rare: an assertion `x != 37` fails for one input.
const RARE: [i64; 5] = [37, 11, -17, 100, 4];

impl Generator {
    fn new(seed: u64) -> Generator {
        Generator {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            globals: Vec::new(),
            signatures: Vec::new(),
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    fn program(mut self) -> String {
        let mut out = String::new();
        let global_count = 1 + self.below(3);
        for i in 0..global_count {
            let ty = if i == 2 { Ty::Bool } else { Ty::Int };
            self.globals.push((format!("g{i}"), ty));
        }
        for (name, ty) in &self.globals {
            let _ = writeln!(out, "var {name}: {};", ty.name());
        }
        let procs = *self.pick(&[0usize, 1, 1, 2, 2, 3]);
        for i in 0..procs {
            let params = (0..1 + self.below(2))
                .map(|j| {
                    let ty = if j == 1 && self.chance(40) {
                        Ty::Bool
                    } else {
                        Ty::Int
                    };
                    (format!("x{j}"), ty)
                })
                .collect();
            let outs = (0..1 + self.below(2))
                .map(|j| {
                    let ty = if j == 1 && self.chance(40) {
                        Ty::Bool
                    } else {
                        Ty::Int
                    };
                    (format!("r{j}"), ty)
                })
                .collect();
            self.signatures.push(Signature {
                name: format!("p{i}"),
                params,
                outs,
            });
        }
        for i in 0..procs {
            out.push('\n');
            let text = self.procedure(i);
            out.push_str(&text);
        }
        out.push('\n');
        let main = self.main();
        out.push_str(&main);
        out
    }

    fn global_vars(&self) -> Vec<Var> {
        self.globals
            .iter()
            .map(|(name, ty)| Var {
                name: name.clone(),
                ty: *ty,
                assignable: true,
            })
            .collect()
    }

    fn procedure(&mut self, index: usize) -> String {
        let sig = self.signatures[index].clone();
        let mut scope = self.global_vars();
        scope.extend(sig.params.iter().map(|(n, ty)| Var {
            name: n.clone(),
            ty: *ty,
            assignable: false,
        }));
        let params: Vec<String> = sig
            .params
            .iter()
            .map(|(n, ty)| format!("{n}: {}", ty.name()))
            .collect();
        let outs: Vec<String> = sig
            .outs
            .iter()
            .map(|(n, ty)| format!("{n}: {}", ty.name()))
            .collect();
        let mut text = format!(
            "procedure {}({}) returns ({})\n",
            sig.name,
            params.join(", "),
            outs.join(", ")
        );
        if self.chance(25) {
            let pre = match self.chance(50) {
                true => self.rare_assertion(&scope),
                false => self.bool_expr(&scope, 1),
            };
            let _ = writeln!(text, "  requires {pre};");
        }
        // `ensures` may speak of the outs and of the globals' entry values.
        let mut post_scope = scope.clone();
        post_scope.extend(sig.outs.iter().map(|(n, ty)| Var {
            name: n.clone(),
            ty: *ty,
            assignable: false,
        }));
        if self.chance(25) {
            let post = match self.chance(50) {
                true => self.rare_assertion(&post_scope),
                false => self.bool_expr(&post_scope, 1),
            };
            let global = self
                .globals
                .iter()
                .find(|(_, ty)| *ty == Ty::Int)
                .map(|(g, _)| g.clone());
            let post = match global {
                Some(g) if self.chance(40) => format!("({post}) || {g} != old({g})"),
                _ => post,
            };
            let _ = writeln!(text, "  ensures {post};");
        }
        text.push_str("{\n");
        let locals = self.locals(&mut scope, &mut text);
        // Every out and local is assigned before anything reads it.
        for (n, ty) in &sig.outs {
            let value = self.literal(*ty);
            let _ = writeln!(text, "  {n} := {value};");
        }
        for (n, ty) in &locals {
            let value = self.literal(*ty);
            let _ = writeln!(text, "  {n} := {value};");
        }
        scope.extend(sig.outs.iter().map(|(n, ty)| Var {
            name: n.clone(),
            ty: *ty,
            assignable: true,
        }));
        let place = Place {
            prelude: false,
            depth: 0,
            proc: Some(index),
        };
        let body = if self.chance(20) {
            self.blocks(&scope, place)
        } else {
            {
                let n = 2 + self.below(4);
                self.statements(&scope, place, n)
            }
        };
        text.push_str(&body);
        text.push_str("}\n");
        text
    }

    /// Declares 1..=3 locals, adds them to `scope` and returns them.
    fn locals(&mut self, scope: &mut Vec<Var>, text: &mut String) -> Vec<(String, Ty)> {
        let count = 1 + self.below(3);
        let mut out = Vec::new();
        for i in 0..count {
            let ty = if i == 2 { Ty::Bool } else { Ty::Int };
            let name = format!("t{i}");
            let _ = writeln!(text, "  var {name}: {};", ty.name());
            scope.push(Var {
                name: name.clone(),
                ty,
                assignable: true,
            });
            out.push((name, ty));
        }
        out
    }

    fn main(&mut self) -> String {
        let mut scope = self.global_vars();
        let param_count = 1 + self.below(3);
        let params: Vec<(String, Ty)> = (0..param_count)
            .map(|i| (["a", "b", "c"][i as usize].to_string(), Ty::Int))
            .collect();
        scope.extend(params.iter().map(|(n, ty)| Var {
            name: n.clone(),
            ty: *ty,
            assignable: false,
        }));
        let shown: Vec<String> = params.iter().map(|(n, _)| format!("{n}: int")).collect();
        let mut text = format!("procedure main({})\n", shown.join(", "));
        if self.chance(15) {
            let pre = self.bool_expr(&scope, 1);
            let _ = writeln!(text, "  requires {pre};");
        }
        text.push_str("{\n");
        let locals = self.locals(&mut scope, &mut text);
        // Locals left uninitialised are inputs of the entry too; most are set.
        for (n, ty) in &locals {
            if self.chance(80) {
                let value = self.literal(*ty);
                let _ = writeln!(text, "  {n} := {value};");
            }
        }
        for (g, ty) in self.globals.clone() {
            if self.chance(50) {
                let value = self.literal(ty);
                let _ = writeln!(text, "  {g} := {value};");
            }
        }
        let place = Place {
            prelude: true,
            depth: 0,
            proc: None,
        };
        let body = if self.chance(35) {
            self.blocks(&scope, place)
        } else {
            {
                let n = 3 + self.below(4);
                self.statements(&scope, place, n)
            }
        };
        text.push_str(&body);
        text.push_str("}\n");
        text
    }

    /// A body of labelled blocks: the first (unlabelled) block, then `L1..Ln`, each ending
    /// in a `goto` (forward, several targets only in the entry's first block), a guarded
    /// backward `goto` through a counter, or `return`.
    fn blocks(&mut self, scope: &[Var], place: Place) -> String {
        let count = 2 + self.below(3) as usize;
        let mut text = String::new();
        let counter = self.fresh_counter_target(scope).filter(|_| self.chance(50));
        for block in 0..count {
            let first = block == 0;
            let here = Place {
                prelude: place.prelude && first,
                ..place
            };
            if !first {
                let _ = writeln!(text, "L{block}:");
            }
            text.push_str(&{
                let n = 1 + self.below(3);
                self.statements(scope, here, n)
            });
            let last = block + 1 == count;
            if last {
                text.push_str("  return;\n");
                continue;
            }
            // A backward jump, bounded by a counter that only grows.
            if let Some(c) = &counter
                && block > 0
                && self.chance(40)
            {
                let target = 1 + self.below(block as u64) as usize;
                let limit = self.below(4);
                let _ = writeln!(
                    text,
                    "  if ({c} < {limit}) {{\n    {c} := {c} + 1;\n    goto L{target};\n  }}"
                );
            }
            let next = block + 1;
            if here.prelude && count > next + 1 && self.chance(60) {
                let other = next + 1 + self.below((count - next - 1) as u64) as usize;
                let _ = writeln!(text, "  goto L{next}, L{other};");
            } else if !first && count > next + 1 && self.chance(30) {
                let other = next + 1 + self.below((count - next - 1) as u64) as usize;
                let _ = writeln!(text, "  goto L{other};");
            } else {
                let _ = writeln!(text, "  goto L{next};");
            }
        }
        text
    }

    /// An assignable int variable that can count backward jumps (set to 0 first).
    fn fresh_counter_target(&mut self, scope: &[Var]) -> Option<String> {
        scope
            .iter()
            .rev()
            .find(|v| v.assignable && v.ty == Ty::Int && v.name.starts_with('t'))
            .map(|v| v.name.clone())
    }

    fn statements(&mut self, scope: &[Var], place: Place, count: u64) -> String {
        let mut text = String::new();
        for _ in 0..count {
            text.push_str(&self.statement(scope, place));
        }
        text
    }

    fn indent(depth: u32) -> String {
        "  ".repeat(depth as usize + 1)
    }

    fn statement(&mut self, scope: &[Var], place: Place) -> String {
        let pad = Self::indent(place.depth);
        let nested = Place {
            depth: place.depth + 1,
            ..place
        };
        let deep = place.depth >= 2;
        match self.below(100) {
            0..=24 => self.assignment(scope, &pad),
            25..=37 if !deep => {
                let cond = if place.prelude && self.chance(30) {
                    "*".to_string()
                } else {
                    self.bool_expr(scope, 2)
                };
                let then = {
                    let n = 1 + self.below(2);
                    self.statements(scope, nested, n)
                };
                let mut text = format!("{pad}if ({cond}) {{\n{then}{pad}}}");
                if self.chance(50) {
                    let other = {
                        let n = 1 + self.below(2);
                        self.statements(scope, nested, n)
                    };
                    let _ = write!(text, " else {{\n{other}{pad}}}");
                }
                text.push('\n');
                text
            }
            38..=46 if !deep => self.while_loop(scope, place, &pad),
            47..=64 => self.call(scope, place, &pad),
            65..=76 => {
                let cond = self.rare_assertion(scope);
                format!("{pad}assert {cond};\n")
            }
            77..=81 => {
                let cond = self.bool_expr(scope, 1);
                let cond = if self.chance(50) {
                    format!("{cond} || {}", self.bool_expr(scope, 1))
                } else {
                    cond
                };
                format!("{pad}assume {cond};\n")
            }
            88..=93 if place.prelude => {
                let targets: Vec<&Var> = scope.iter().filter(|v| v.assignable).collect();
                match targets.is_empty() {
                    true => self.assignment(scope, &pad),
                    false => {
                        let v = self.pick(&targets).name.clone();
                        format!("{pad}havoc {v};\n")
                    }
                }
            }
            _ => self.assignment(scope, &pad),
        }
    }

    fn assignment(&mut self, scope: &[Var], pad: &str) -> String {
        let targets: Vec<Var> = scope.iter().filter(|v| v.assignable).cloned().collect();
        if targets.is_empty() {
            let cond = self.rare_assertion(scope);
            return format!("{pad}assert {cond};\n");
        }
        let target = self.pick(&targets).clone();
        // Sometimes two at once (Boogie's parallel assignment).
        if self.chance(10)
            && let Some(second) = targets.iter().find(|v| v.name != target.name).cloned()
        {
            let a = self.expr(target.ty, scope, 2);
            let b = self.expr(second.ty, scope, 2);
            return format!("{pad}{}, {} := {a}, {b};\n", target.name, second.name);
        }
        let value = self.expr(target.ty, scope, 2);
        format!("{pad}{} := {value};\n", target.name)
    }

    fn while_loop(&mut self, scope: &[Var], place: Place, pad: &str) -> String {
        let Some(counter) = self.fresh_counter_target(scope) else {
            return self.assignment(scope, pad);
        };
        let ints: Vec<String> = scope
            .iter()
            .filter(|v| v.ty == Ty::Int && v.name != counter)
            .map(|v| v.name.clone())
            .collect();
        let limit = if !ints.is_empty() && self.chance(50) {
            self.pick(&ints).clone()
        } else {
            (1 + self.below(4)).to_string()
        };
        let invariant = match self.below(4) {
            0 | 1 => format!("{counter} >= 0"),
            2 => self.bool_expr(scope, 1),
            _ => self.rare_assertion(scope),
        };
        // The loop body is a procedure of its own: no nondeterminism inside.
        let inner = Place {
            prelude: false,
            depth: place.depth + 1,
            ..place
        };
        let body = {
            let n = 1 + self.below(2);
            self.statements(scope, inner, n)
        };
        let inner_pad = Self::indent(place.depth + 1);
        let kind = if self.chance(20) {
            "free invariant"
        } else {
            "invariant"
        };
        format!(
            "{pad}{counter} := 0;\n{pad}while ({counter} < {limit})\n{pad}  {kind} {invariant};\n{pad}{{\n{body}{inner_pad}{counter} := {counter} + 1;\n{pad}}}\n"
        )
    }

    fn call(&mut self, scope: &[Var], place: Place, pad: &str) -> String {
        if self.signatures.is_empty() {
            return self.assignment(scope, pad);
        }
        let callee = self.below(self.signatures.len() as u64) as usize;
        let sig = self.signatures[callee].clone();
        // The outs: distinct assignable variables of the right types.
        let mut taken: Vec<String> = Vec::new();
        for (_, ty) in &sig.outs {
            let choices: Vec<String> = scope
                .iter()
                .filter(|v| v.assignable && v.ty == *ty && !taken.contains(&v.name))
                .map(|v| v.name.clone())
                .collect();
            if choices.is_empty() {
                return self.assignment(scope, pad);
            }
            let v = self.pick(&choices).clone();
            taken.push(v);
        }
        // A call that may recurse (the callee is this procedure or an earlier one) passes a
        // smaller first argument under a guard, mostly; unguarded ones may not terminate.
        let recursive = place.proc.is_some_and(|p| callee <= p);
        let guard_param = place.proc.and_then(|p| {
            self.signatures[p]
                .params
                .iter()
                .find(|(_, ty)| *ty == Ty::Int)
                .map(|(n, _)| n.clone())
        });
        let mut args: Vec<String> = sig
            .params
            .iter()
            .map(|(_, ty)| self.expr(*ty, scope, 1))
            .collect();
        let call_text = |args: &[String]| {
            let lhs = if taken.is_empty() {
                String::new()
            } else {
                format!("{} := ", taken.join(", "))
            };
            format!("call {lhs}{}({});", sig.name, args.join(", "))
        };
        match guard_param {
            Some(n) if recursive && sig.params[0].1 == Ty::Int && self.chance(85) => {
                args[0] = format!("{n} - 1");
                format!(
                    "{pad}if ({n} > 0) {{\n{pad}  {}\n{pad}}}\n",
                    call_text(&args)
                )
            }
            _ => format!("{pad}{}\n", call_text(&args)),
        }
    }

    /// An assertion that fails rarely: a variable against a rare constant, or a random
    /// condition.
    fn rare_assertion(&mut self, scope: &[Var]) -> String {
        let ints: Vec<String> = scope
            .iter()
            .filter(|v| v.ty == Ty::Int)
            .map(|v| v.name.clone())
            .collect();
        if !ints.is_empty() && self.chance(75) {
            let v = self.pick(&ints).clone();
            let c = *self.pick(&RARE);
            let lhs = if self.chance(30) {
                let e = self.int_expr(scope, 1);
                format!("{v} + {e}")
            } else {
                v
            };
            return format!("{lhs} != {c}");
        }
        self.bool_expr(scope, 2)
    }

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => {
                let n = self.below(7) as i64 - 2;
                n.to_string()
            }
            Ty::Bool => if self.chance(50) { "true" } else { "false" }.to_string(),
        }
    }

    fn expr(&mut self, ty: Ty, scope: &[Var], depth: u32) -> String {
        match ty {
            Ty::Int => self.int_expr(scope, depth),
            Ty::Bool => self.bool_expr(scope, depth),
        }
    }

    fn var_of(&mut self, ty: Ty, scope: &[Var]) -> Option<String> {
        let vars: Vec<String> = scope
            .iter()
            .filter(|v| v.ty == ty)
            .map(|v| v.name.clone())
            .collect();
        (!vars.is_empty()).then(|| self.pick(&vars).clone())
    }

    fn int_expr(&mut self, scope: &[Var], depth: u32) -> String {
        if depth == 0 || self.chance(35) {
            return match self.var_of(Ty::Int, scope) {
                Some(v) if self.chance(70) => v,
                _ => {
                    if self.chance(20) {
                        self.pick(&RARE).to_string()
                    } else {
                        self.literal(Ty::Int)
                    }
                }
            };
        }
        let d = depth - 1;
        match self.below(8) {
            0 | 1 => format!("{} + {}", self.int_expr(scope, d), self.int_atom(scope)),
            2 => format!("{} - {}", self.int_expr(scope, d), self.int_atom(scope)),
            3 => format!("{} * {}", self.int_atom(scope), 1 + self.below(3)),
            4 => format!("{} div {}", self.int_atom(scope), 1 + self.below(3)),
            5 => format!("{} mod {}", self.int_atom(scope), 2 + self.below(2)),
            6 => format!(
                "(if {} then {} else {})",
                self.bool_expr(scope, d),
                self.int_expr(scope, d),
                self.int_expr(scope, d)
            ),
            _ => format!("-{}", self.int_atom(scope)),
        }
    }

    /// An int expression that needs no parentheses as an operand.
    fn int_atom(&mut self, scope: &[Var]) -> String {
        match self.var_of(Ty::Int, scope) {
            Some(v) if self.chance(75) => v,
            _ => {
                let n = self.below(6) as i64;
                n.to_string()
            }
        }
    }

    fn bool_expr(&mut self, scope: &[Var], depth: u32) -> String {
        if depth == 0 || self.chance(30) {
            return match self.below(10) {
                0 => self.literal(Ty::Bool),
                1..=3 => self
                    .var_of(Ty::Bool, scope)
                    .unwrap_or_else(|| self.comparison(scope)),
                _ => self.comparison(scope),
            };
        }
        let d = depth - 1;
        let (a, b) = (self.bool_expr(scope, d), self.bool_expr(scope, d));
        match self.below(6) {
            0 | 1 => format!("({a} && {b})"),
            2 => format!("({a} || {b})"),
            3 => format!("!({a})"),
            4 => format!("({a} ==> {b})"),
            _ => format!("({a} <==> {b})"),
        }
    }

    fn comparison(&mut self, scope: &[Var]) -> String {
        let op = *self.pick(&["<", "<=", "==", "!=", ">", ">="]);
        let a = self.int_expr(scope, 1);
        let b = self.int_atom(scope);
        format!("{a} {op} {b}")
    }
}

/// Shrinks a Boogie text line by line: deletes a braced block (a line ending in `{` up to
/// its closing line) or a single line whenever the result still satisfies `keep` (which
/// must reject texts that do not load), until nothing more goes or `budget` calls are spent.
pub fn shrink_text(text: &str, keep: impl Fn(&str) -> bool, budget: usize) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut calls = 0;
    loop {
        let mut progress = false;
        let mut i = 0;
        while i < lines.len() && calls < budget {
            let end = block_end(&lines, i).unwrap_or(i);
            let mut candidate = lines.clone();
            candidate.drain(i..=end);
            calls += 1;
            if keep(&candidate.join("\n")) {
                lines = candidate;
                progress = true;
                continue;
            }
            if end != i {
                let mut candidate = lines.clone();
                candidate.remove(i);
                calls += 1;
                if keep(&candidate.join("\n")) {
                    lines = candidate;
                    progress = true;
                    continue;
                }
            }
            i += 1;
        }
        if !progress || calls >= budget {
            return lines.join("\n") + "\n";
        }
    }
}

/// The line closing the block opened at line `start` (which ends in `{`), if it does.
fn block_end(lines: &[String], start: usize) -> Option<usize> {
    if !lines[start].trim_end().ends_with('{') {
        return None;
    }
    let mut open = 0i32;
    for (i, line) in lines.iter().enumerate().skip(start) {
        open += line.matches('{').count() as i32;
        open -= line.matches('}').count() as i32;
        if open <= 0 {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_text() {
        for seed in 0..50 {
            assert_eq!(generate(seed), generate(seed));
        }
        assert_ne!(generate(1), generate(2));
    }

    #[test]
    fn shrinking_keeps_what_it_is_asked_to_keep() {
        let text =
            "procedure main(a: int)\n{\n  if (a > 0) {\n    a := 1;\n  }\n  assert a != 37;\n}\n";
        let shrunk = shrink_text(
            text,
            |t| t.contains("assert a != 37;") && t.contains("main"),
            100,
        );
        assert!(shrunk.contains("assert a != 37;"));
        assert!(!shrunk.contains("if (a > 0)"), "{shrunk}");
    }
}
