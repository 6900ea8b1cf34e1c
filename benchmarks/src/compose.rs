//! Composing small programs into large ones.
//!
//! As the HORef papers built their 100–400 line programs: every building block (a program
//! of `benchmarks/programs`) becomes a *sub-main* — its methods and references renamed with
//! a prefix `sNNN_`, its `Main` turned into a method `sNNN_main` — and the new `Main`
//! dispatches on an input `sel` to one sub-main through a balanced tree of
//! `if sel <= c then ... else ...` (nesting depth log2 of the number of sub-mains, far below
//! the parser's limit).
//!
//! Guarantees: [`compose`] is a pure function of its inputs (the same blocks in the same order
//! give the same bytes). Renaming is by token, so it is exact provided no local binder of a
//! block has the name of one of its methods or references — [`Block::parse`] rejects such
//! blocks. Depths shift by one: a sub-main's body runs at depth 1, so a block whose bug needs
//! depth N has it at depth N + 1 in the composition.

use crate::expect::{from_header, header};
use horef_si::core_lang::ast::Type;
use horef_si::frontend::horef::lexer::{Tok, Token, lex};
use horef_si::frontend::horef::parse_program;
use horef_si::suite::expect::Expectation;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;

/// A benchmark program, split into the parts a composition needs.
#[derive(Clone, Debug)]
pub struct Block {
    pub name: String,
    pub expect: Expectation,
    text: String,
    tokens: Vec<Token>,
    globals: BTreeSet<String>,
    store: Range<usize>,
    methods: Range<usize>,
    params: Range<usize>,
    ret: Range<usize>,
    body: Range<usize>,
    /// One entry per `Main` parameter: is it `Unit` (else `Int`)?
    unit_params: Vec<bool>,
}

/// A block renamed for one slot of a composition.
struct Instance {
    store: String,
    methods: String,
    main_name: String,
    unit_params: Vec<bool>,
}

/// How to compose: which blocks, where the bug goes, what to claim for a safe composition.
#[derive(Clone, Debug)]
pub struct Plan<'a> {
    /// The blocks of the sub-mains, in order (blocks may repeat).
    pub slots: Vec<&'a Block>,
    /// What the header claims when no block has a bug.
    pub safe_claim: Expectation,
}

impl Block {
    /// Splits the program `text` (called `name`) into sections; fails on a program that does
    /// not parse, lacks an expectation, takes inputs other than `Int`/`Unit`, or shadows one
    /// of its global names with a local binder.
    pub fn parse(name: &str, text: &str) -> Result<Block, String> {
        let program = parse_program(text).map_err(|d| format!("{name}: {}", d.message))?;
        let expect = from_header(text)
            .map_err(|e| format!("{name}: {e}"))?
            .ok_or_else(|| format!("{name}: no `(* expect: ... *)` header"))?;
        let tokens = lex(text).map_err(|e| format!("{name}: {}", e.message))?;
        let mut globals: BTreeSet<String> = program
            .methods
            .iter()
            .map(|m| m.name.name.to_string())
            .collect();
        globals.extend(program.store.iter().map(|r| r.name.name.to_string()));
        let unit_params = main_param_kinds(name, &program.main.params)?;
        let sections = Sections::find(&tokens).map_err(|e| format!("{name}: {e}"))?;
        let block = Block {
            name: name.to_string(),
            expect,
            text: text.to_string(),
            tokens,
            globals,
            store: sections.store,
            methods: sections.methods,
            params: sections.params,
            ret: sections.ret,
            body: sections.body,
            unit_params,
        };
        block.check_no_shadowing()?;
        Ok(block)
    }

    /// The number of inputs of the block's `Main`.
    pub fn arity(&self) -> usize {
        self.unit_params.len()
    }

    /// A binder is an identifier followed by `:` (`x:T`); outside `Store:` none may be global.
    fn check_no_shadowing(&self) -> Result<(), String> {
        let binder_ranges = [self.methods.clone(), self.params.start..self.body.end];
        for range in binder_ranges {
            for pair in self.tokens[range].windows(2) {
                if let (Tok::Ident(x), Tok::Colon) = (&pair[0].tok, &pair[1].tok)
                    && self.globals.contains(&**x)
                {
                    return Err(format!(
                        "{}: the binder `{x}` shadows a method or reference of the same name",
                        self.name
                    ));
                }
            }
        }
        Ok(())
    }

    fn instantiate(&self, prefix: &str) -> Instance {
        let render = |range: &Range<usize>| self.render(range.clone(), prefix);
        let main_name = format!("{prefix}main");
        let mut methods = render(&self.methods);
        let _ = write!(
            methods,
            "\n{main_name} {} :{} =\n  {};\n",
            render(&self.params),
            render(&self.ret),
            render(&self.body)
        );
        Instance {
            store: render(&self.store),
            methods,
            main_name,
            unit_params: self.unit_params.clone(),
        }
    }

    /// The source of the tokens in `range`, globals prefixed, comments dropped, line breaks
    /// and indentation kept.
    fn render(&self, range: Range<usize>, prefix: &str) -> String {
        let mut out = String::new();
        let mut previous_end: Option<usize> = None;
        for token in &self.tokens[range] {
            let start = token.span.start as usize;
            if let Some(end) = previous_end {
                out.push_str(&gap(&self.text[end..start]));
            }
            match &token.tok {
                Tok::Ident(x) if self.globals.contains(&**x) => {
                    let _ = write!(out, "{prefix}{x}");
                }
                _ => out.push_str(&self.text[start..token.span.end as usize]),
            }
            previous_end = Some(token.span.end as usize);
        }
        out.trim().to_string()
    }
}

/// The text between two tokens without its comments: a comment becomes one space, the rest
/// (whitespace) is kept. Comments nest.
fn gap(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if text[i..].starts_with("(*") {
            depth += 1;
            chars.next();
        } else if depth > 0 && text[i..].starts_with("*)") {
            depth -= 1;
            chars.next();
            if depth == 0 {
                out.push(' ');
            }
        } else if depth == 0 || c == '\n' {
            out.push(c);
        }
    }
    out
}

fn main_param_kinds(
    name: &str,
    params: &[horef_si::core_lang::ast::Binder],
) -> Result<Vec<bool>, String> {
    params
        .iter()
        .map(|p| match p.ty {
            Type::Int => Ok(false),
            Type::Unit => Ok(true),
            ref other => Err(format!(
                "{name}: Main input `{}` has type {other}",
                p.name.name
            )),
        })
        .collect()
}

/// Token ranges of a program's sections.
struct Sections {
    store: Range<usize>,
    methods: Range<usize>,
    params: Range<usize>,
    ret: Range<usize>,
    body: Range<usize>,
}

impl Sections {
    fn find(tokens: &[Token]) -> Result<Sections, String> {
        let position = |t: Tok| tokens.iter().position(|x| x.tok == t);
        let main = position(Tok::Main).ok_or("no `Main`")?;
        let methods_kw = position(Tok::Methods);
        let store_kw = position(Tok::Store);
        let methods_end = main;
        let store_end = methods_kw.unwrap_or(main);
        // `Store` `:` decls... | `Methods` `:` methods... | `Main` `(` ... `)` `:` T `:` body
        let store = store_kw.map_or(0..0, |s| s + 2..store_end);
        let methods = methods_kw.map_or(0..0, |m| m + 2..methods_end);
        let close = matching_paren(tokens, main + 1)?;
        let second_colon = (close + 2..tokens.len())
            .find(|&i| tokens[i].tok == Tok::Colon)
            .ok_or("no `:` after the type of `Main`")?;
        let eof = tokens.len() - 1;
        Ok(Sections {
            store,
            methods,
            params: main + 1..close + 1,
            ret: close + 2..second_colon,
            body: second_colon + 1..eof,
        })
    }
}

fn matching_paren(tokens: &[Token], open: usize) -> Result<usize, String> {
    if tokens.get(open).map(|t| &t.tok) != Some(&Tok::LParen) {
        return Err("`Main` is not followed by `(`".to_string());
    }
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.tok {
            Tok::LParen => depth += 1,
            Tok::RParen if depth == 1 => return Ok(i),
            Tok::RParen => depth -= 1,
            _ => {}
        }
    }
    Err("unbalanced parentheses after `Main`".to_string())
}

/// The composed program's expectation: the bug block's (one deeper), else the safe claim.
pub fn composed_expectation(plan: &Plan) -> Expectation {
    let bug_depth = plan
        .slots
        .iter()
        .filter_map(|b| match b.expect {
            Expectation::BugWithin { depth } => Some(depth + 1),
            _ => None,
        })
        .min();
    match bug_depth {
        Some(depth) => Expectation::BugWithin { depth },
        None if plan.slots.iter().all(|b| b.expect == Expectation::Verified) => {
            Expectation::Verified
        }
        None => plan.safe_claim,
    }
}

/// The text of the composed program.
pub fn compose(plan: &Plan) -> String {
    let instances: Vec<Instance> = (0..plan.slots.len())
        .map(|i| plan.slots[i].instantiate(&format!("s{i:03}_")))
        .collect();
    let arity = plan.slots.iter().map(|b| b.arity()).max().unwrap_or(0);
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(composed_expectation(plan)));
    describe(&mut out, plan);
    let stores: Vec<&str> = instances
        .iter()
        .map(|i| i.store.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    if !stores.is_empty() {
        let _ = writeln!(out, "Store:\n{}\n", stores.join("\n"));
    }
    out.push_str("Methods:\n");
    for instance in &instances {
        let _ = writeln!(out, "{}", instance.methods);
    }
    let inputs: String = (1..=arity).map(|j| format!(", x{j}:Int")).collect();
    let _ = writeln!(out, "Main (sel:Int{inputs}) :Unit:");
    dispatch(&mut out, &instances, 0..instances.len(), 1);
    out
}

/// The comment under the header: what was composed.
fn describe(out: &mut String, plan: &Plan) {
    let _ = writeln!(
        out,
        "(* Generated by `horef-bench generate` from benchmarks/programs: {} sub-mains, each a\n   renamed copy of a program there (sub-main sNNN_main runs at depth 1). Main\n   dispatches on sel to one of them. *)",
        plan.slots.len()
    );
    let mut line = String::from("(* sub-mains:");
    for (i, block) in plan.slots.iter().enumerate() {
        let item = format!(" {i} {}", block.name);
        if line.len() + item.len() > 88 {
            let _ = writeln!(out, "{line}");
            line = String::from("  ");
        }
        line.push_str(&item);
    }
    let _ = writeln!(out, "{line} *)\n");
}

/// A balanced tree of `if sel <= c` over the sub-mains in `range`.
fn dispatch(out: &mut String, instances: &[Instance], range: Range<usize>, indent: usize) {
    let pad = "  ".repeat(indent);
    if range.len() == 1 {
        let _ = writeln!(out, "{pad}{}", call(&instances[range.start]));
        return;
    }
    let mid = range.start + range.len() / 2;
    let _ = writeln!(out, "{pad}if sel <= {} then", mid - 1);
    dispatch(out, instances, range.start..mid, indent + 1);
    let _ = writeln!(out, "{pad}else");
    dispatch(out, instances, mid..range.end, indent + 1);
}

fn call(instance: &Instance) -> String {
    let args: Vec<String> = instance
        .unit_params
        .iter()
        .enumerate()
        .map(|(j, &unit)| {
            if unit {
                "skip".to_string()
            } else {
                format!("x{}", j + 1)
            }
        })
        .collect();
    format!("{} ({})", instance.main_name, args.join(", "))
}

/// The number of lines of `text`.
pub fn line_count(text: &str) -> usize {
    text.lines().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: &str = "(* expect: verified *)\nStore:\nr:Int -> Int := inc;\nMethods:\n\
        inc (x:Int) :Int = x + 1; (* a comment *)\n\
        Main (n:Int, u:Unit) :Unit:\n  assert (!r n == inc n)\n";
    const BUG: &str = "(* expect: bug within 1 *)\nMethods:\nf (x:Int) :Int = x;\n\
        Main (n:Int) :Unit: assert (f n != 3)\n";

    #[test]
    fn renames_globals_and_keeps_locals() {
        let block = Block::parse("add", ADD).unwrap();
        let instance = block.instantiate("s007_");
        assert_eq!(instance.store, "s007_r:Int -> Int := s007_inc;");
        assert!(
            instance
                .methods
                .starts_with("s007_inc (x:Int) :Int = x + 1;")
        );
        assert!(
            instance
                .methods
                .contains("s007_main (n:Int, u:Unit) :Unit =\n  assert (!s007_r n == s007_inc n);")
        );
        assert!(!instance.methods.contains("comment"));
    }

    #[test]
    fn rejects_a_binder_that_shadows_a_global() {
        let text = "(* expect: verified *)\nMethods:\nf (x:Int) :Int = x;\n\
            Main (n:Int) :Unit: let (f:Int) = 1 in assert (f == 1)\n";
        assert!(
            Block::parse("shadow", text)
                .unwrap_err()
                .contains("`f` shadows")
        );
    }

    #[test]
    fn composes_a_program_that_parses_with_the_bug_one_deeper() {
        let add = Block::parse("add", ADD).unwrap();
        let bug = Block::parse("bug", BUG).unwrap();
        let plan = Plan {
            slots: vec![&add, &add, &bug, &add],
            safe_claim: Expectation::SafeUpTo { depth: 5 },
        };
        let text = compose(&plan);
        assert!(text.starts_with("(* expect: bug within 2 *)\n"));
        assert!(text.contains("Main (sel:Int, x1:Int, x2:Int) :Unit:"));
        assert!(text.contains("s002_main (x1)") && text.contains("s003_main (x1, skip)"));
        parse_program(&text).unwrap();
        assert_eq!(compose(&plan), text);
    }

    #[test]
    fn all_verified_blocks_compose_to_verified() {
        let add = Block::parse("add", ADD).unwrap();
        let plan = Plan {
            slots: vec![&add],
            safe_claim: Expectation::SafeUpTo { depth: 5 },
        };
        assert_eq!(composed_expectation(&plan), Expectation::Verified);
    }
}
