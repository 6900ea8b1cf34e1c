//! Horn systems up to the names of their symbols: two systems that differ only in what
//! their datatypes, constructors, selectors, relations and clause variables are called get
//! the same canonical text, so one proof serves both (issue 12: a generated program holds
//! many renamed copies of one sub-program; each copy is one case of its entry).
//!
//! [`canonical`] renames every declared symbol — datatypes, constructors, selectors (in
//! declaration order), relations (in order), and each clause's bound variables (in binding
//! order, per clause) — to a fresh name that no other symbol of an encoding can have
//! (`c!` and a number), and rewrites every clause with the new names, token by token.
//!
//! Guarantee: the canonical system is the original one under a bijective renaming of its
//! declared and bound symbols, so it is satisfiable exactly when the original is, and an
//! interpretation of it is one of the original under the inverse renaming
//! ([`Canonical::original`]). Symbols it does not declare or bind (theory symbols,
//! numerals) are left alone; a symbol left alone that differs between two copies only
//! makes their canonical texts differ (no proof shared), never one proof wrongly shared.

use super::horn::{Clause, HornSystem, Relation};
use crate::solver::{CtorDecl, DatatypeDecl, FieldDecl, Sort, symbol_text};
use std::collections::HashMap;

/// A system with canonical names and the way back to the original ones.
#[derive(Clone, Debug)]
pub struct Canonical {
    pub system: HornSystem,
    /// Canonical symbol → the original symbol as written in the original clauses (relation
    /// names, datatypes, constructors, selectors; clause variables are not kept).
    pub original: HashMap<String, String>,
}

/// The system with canonical names (see the module doc).
pub fn canonical(system: &HornSystem) -> Canonical {
    let mut names = Names::default();
    for datatype in &system.datatypes {
        names.declare(&datatype.name);
        for ctor in &datatype.ctors {
            names.declare(&ctor.name);
            for field in &ctor.fields {
                names.declare(&field.selector);
            }
        }
    }
    for relation in &system.relations {
        names.declare_printed(&relation.name);
    }
    let datatypes = system
        .datatypes
        .iter()
        .map(|d| DatatypeDecl {
            kind: d.kind,
            name: names.raw(&d.name),
            ctors: d
                .ctors
                .iter()
                .map(|c| CtorDecl {
                    name: names.raw(&c.name),
                    fields: c
                        .fields
                        .iter()
                        .map(|f| FieldDecl {
                            selector: names.raw(&f.selector),
                            sort: names.sort(&f.sort),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let relations = system
        .relations
        .iter()
        .map(|r| Relation {
            name: names.raw(&r.name),
            params: r
                .params
                .iter()
                .map(|p| super::horn::RelationParam {
                    role: p.role.clone(),
                    sort: names.sort(&p.sort),
                })
                .collect(),
            ..r.clone()
        })
        .collect();
    let clauses = system.clauses.iter().map(|c| names.clause(c)).collect();
    let entry_interpretation = system
        .entry_interpretation
        .as_ref()
        .map(|text| rename_tokens(text, &|t| names.global.get(t).cloned()));
    let original = names
        .global
        .iter()
        .map(|(from, to)| (to.clone(), from.clone()))
        .collect();
    Canonical {
        system: HornSystem {
            entry: system.entry,
            datatypes,
            relations,
            clauses,
            entry_interpretation,
        },
        original,
    }
}

/// The renaming being built: original symbol (as printed) → canonical symbol.
#[derive(Default)]
struct Names {
    global: HashMap<String, String>,
}

impl Names {
    /// Declares a name given as the session takes it (spelled as a symbol when printed).
    fn declare(&mut self, name: &str) {
        self.declare_printed(&symbol_text(name));
    }

    /// Declares a name given as it is printed (relation names are kept that way).
    fn declare_printed(&mut self, printed: &str) {
        let next = format!("c!{}", self.global.len());
        self.global.entry(printed.to_string()).or_insert(next);
    }

    /// The canonical name of a declared `name`, given either way (unchanged if it was
    /// not declared).
    fn raw(&self, name: &str) -> String {
        self.global
            .get(name)
            .or_else(|| self.global.get(symbol_text(name).as_ref()))
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    fn sort(&self, sort: &Sort) -> Sort {
        match sort {
            Sort::Datatype(name) => Sort::Datatype(self.raw(name)),
            Sort::Array(key, value) => {
                Sort::Array(Box::new(self.sort(key)), Box::new(self.sort(value)))
            }
            other => other.clone(),
        }
    }

    /// The clause with its bound variables numbered in binding order, and every symbol
    /// renamed.
    fn clause(&self, clause: &Clause) -> Clause {
        let bound: HashMap<String, String> = clause
            .vars
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (symbol_text(name).into_owned(), format!("c!v{i}")))
            .collect();
        let lookup = |token: &str| bound.get(token).or_else(|| self.global.get(token)).cloned();
        Clause {
            what: canonical_what(&clause.what),
            vars: clause
                .vars
                .iter()
                .enumerate()
                .map(|(i, (_, sort))| (format!("c!v{i}"), self.sort(sort)))
                .collect(),
            body: clause
                .body
                .iter()
                .map(|t| rename_tokens(t, &lookup))
                .collect(),
            head: clause.head.as_ref().map(|t| rename_tokens(t, &lookup)),
        }
    }
}

/// A clause's comment without the names it mentions (`body of fib` → `body`), so that it
/// does not tell copies apart.
fn canonical_what(what: &str) -> String {
    what.split_whitespace()
        .next()
        .unwrap_or("clause")
        .to_string()
}

/// `text` with every symbol token `lookup` knows replaced; parentheses, whitespace,
/// numerals, string literals and comments kept as they are.
pub fn rename_tokens(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = match c {
            '(' | ')' => 1,
            c if c.is_whitespace() => c.len_utf8(),
            '|' => rest[1..].find('|').map_or(rest.len(), |end| end + 2),
            '"' => rest[1..].find('"').map_or(rest.len(), |end| end + 2),
            ';' => rest.find('\n').unwrap_or(rest.len()),
            _ => rest
                .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .unwrap_or(rest.len()),
        };
        let token = &rest[..len];
        match lookup(token) {
            Some(renamed) => out.push_str(&renamed),
            None => out.push_str(token),
        }
        rest = &rest[len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vc::horn::RelationParam;

    fn system(prefix: &str) -> HornSystem {
        let rel = format!("{prefix}f!rel");
        let list = format!("{prefix}List");
        HornSystem {
            entry: None,
            datatypes: vec![DatatypeDecl::new(
                list.clone(),
                vec![
                    CtorDecl::new(format!("{prefix}nil"), Vec::<(String, Sort)>::new()),
                    CtorDecl::new(
                        format!("{prefix}cons"),
                        [
                            (format!("{prefix}head"), Sort::Int),
                            (format!("{prefix}tail"), Sort::datatype(list.clone())),
                        ],
                    ),
                ],
            )],
            relations: vec![Relation {
                proc: None,
                name: rel.clone(),
                params: vec![
                    RelationParam {
                        role: "l".into(),
                        sort: Sort::datatype(list.clone()),
                    },
                    RelationParam {
                        role: "n".into(),
                        sort: Sort::Int,
                    },
                ],
                inputs: 1,
                defined_true: false,
            }],
            clauses: vec![
                Clause {
                    what: format!("body of {prefix}f"),
                    vars: vec![(format!("{prefix}x!1"), Sort::Int)],
                    body: vec![format!("(>= {prefix}x!1 0)")],
                    head: Some(format!("({rel} ({prefix}cons {prefix}x!1 {prefix}nil) 1)")),
                },
                Clause {
                    what: "goal".into(),
                    vars: vec![(format!("{prefix}y!7"), Sort::datatype(list))],
                    body: vec![format!("({rel} {prefix}y!7 -1)")],
                    head: None,
                },
            ],
            entry_interpretation: None,
        }
    }

    #[test]
    fn renamed_copies_have_one_canonical_text() {
        let a = canonical(&system("a_"));
        let b = canonical(&system("copy7_"));
        assert_eq!(a.system.script(), b.system.script());
        assert_ne!(system("a_").script(), system("copy7_").script());
        let text = a.system.script();
        assert!(!text.contains("a_"), "{text}");
        assert!(text.contains("(c!5 (c!2 c!v0 c!1) 1)"), "{text}");
        assert_eq!(a.original["c!5"], "a_f!rel");
        assert_eq!(b.original["c!5"], "copy7_f!rel");
    }

    #[test]
    fn different_systems_stay_different() {
        let a = system("a_");
        let mut b = system("a_");
        b.clauses[0].body[0] = "(>= a_x!1 1)".into();
        assert_ne!(canonical(&a).system.script(), canonical(&b).system.script());
    }

    #[test]
    fn tokens_inside_bars_and_comments_are_whole() {
        let lookup = |t: &str| (t == "|a b|").then(|| "c!0".to_string());
        assert_eq!(
            rename_tokens("(f |a b| ab) ; |a b|", &lookup),
            "(f c!0 ab) ; |a b|"
        );
    }
}
