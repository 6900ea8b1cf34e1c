//! Sorts, datatype declarations and SMT-LIB symbol spelling.
//!
//! Names given to the session (constants, datatypes, constructors, selectors) are spelled as
//! SMT-LIB symbols: a simple symbol as is, anything else between bars (`|x y|`). Bars only
//! make characters legal; they do not rename: `|true|` is still `true`, so callers must not
//! reuse theory symbols (`true`, `+`, `Int`, `not`, ...) as names.

use std::borrow::Cow;

/// The sorts the verifier needs: integers, booleans, declared datatypes and arrays.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    Int,
    Bool,
    /// A sort declared with [`super::Session::declare_datatypes`]: a datatype, or an
    /// uninterpreted sort ([`DeclKind`]).
    Datatype(String),
    /// `(Array key value)`: SMT-LIB's arrays (total maps, extensional).
    Array(Box<Sort>, Box<Sort>),
}

impl Sort {
    pub fn datatype(name: impl Into<String>) -> Sort {
        Sort::Datatype(name.into())
    }

    pub(crate) fn text(&self) -> Cow<'_, str> {
        match self {
            Sort::Int => Cow::Borrowed("Int"),
            Sort::Bool => Cow::Borrowed("Bool"),
            Sort::Datatype(name) => symbol_text(name),
            Sort::Array(key, value) => {
                Cow::Owned(format!("(Array {} {})", key.text(), value.text()))
            }
        }
    }
}

/// One datatype of a (possibly mutually recursive) group:
/// `IntList { nil(), cons(head: Int, tail: IntList) }`, or an uninterpreted sort (no
/// constructors; declared before the datatypes, which may use it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatatypeDecl {
    pub name: String,
    pub ctors: Vec<CtorDecl>,
    pub kind: DeclKind,
}

/// How a [`DatatypeDecl`] is declared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeclKind {
    /// `(declare-datatypes …)`.
    #[default]
    Datatype,
    /// `(declare-sort T 0)`, and `T!elem: Int -> T` ([`elem_function`]) to name elements
    /// by the interpreter's opaque integers (not injective: it adds nothing about `T`).
    Uninterpreted,
    /// `(define-sort T () Int)`: the sort read as the integers, the concrete run's view of
    /// it (its opaque integers are distinct, and there are infinitely many).
    Integers,
}

/// The function naming elements of the uninterpreted sort `sort` by integers.
pub fn elem_function(sort: &str) -> String {
    format!("{sort}!elem")
}

/// The declaration commands of `decls`: uninterpreted sorts first, one command each, then
/// the datatypes in one `declare-datatypes` (none when there are none).
pub fn declaration_commands(decls: &[DatatypeDecl]) -> Vec<String> {
    let mut out = Vec::new();
    for d in decls {
        let name = symbol_text(&d.name);
        match d.kind {
            DeclKind::Datatype => {}
            DeclKind::Uninterpreted => {
                out.push(format!("(declare-sort {name} 0)"));
                let elem = symbol_text(&elem_function(&d.name)).into_owned();
                out.push(format!("(declare-fun {elem} (Int) {name})"));
            }
            DeclKind::Integers => out.push(format!("(define-sort {name} () Int)")),
        }
    }
    let datatypes: Vec<&DatatypeDecl> = decls
        .iter()
        .filter(|d| d.kind == DeclKind::Datatype)
        .collect();
    if !datatypes.is_empty() {
        let sorts: Vec<String> = datatypes.iter().map(|d| d.sort_text()).collect();
        let ctors: Vec<String> = datatypes.iter().map(|d| d.ctors_text()).collect();
        out.push(format!(
            "(declare-datatypes ({}) ({}))",
            sorts.join(" "),
            ctors.join(" ")
        ));
    }
    out
}

/// A constructor. Constructor and selector names must be unique in the whole session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtorDecl {
    pub name: String,
    pub fields: Vec<FieldDecl>,
}

/// A constructor field: its selector's name and its sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDecl {
    pub selector: String,
    pub sort: Sort,
}

impl DatatypeDecl {
    pub fn new(name: impl Into<String>, ctors: Vec<CtorDecl>) -> DatatypeDecl {
        DatatypeDecl {
            name: name.into(),
            ctors,
            kind: DeclKind::Datatype,
        }
    }

    /// An uninterpreted sort.
    pub fn uninterpreted(name: impl Into<String>) -> DatatypeDecl {
        DatatypeDecl {
            name: name.into(),
            ctors: Vec::new(),
            kind: DeclKind::Uninterpreted,
        }
    }

    /// `(name 0)` of the sort list.
    pub(crate) fn sort_text(&self) -> String {
        format!("({} 0)", symbol_text(&self.name))
    }

    /// `((c1 (s1 S1) ...) (c2) ...)` of the declaration list.
    pub(crate) fn ctors_text(&self) -> String {
        let ctors: Vec<String> = self.ctors.iter().map(CtorDecl::text).collect();
        format!("({})", ctors.join(" "))
    }
}

impl CtorDecl {
    /// `CtorDecl::new("cons", [("head", Sort::Int), ("tail", Sort::datatype("IntList"))])`.
    pub fn new<S: Into<String>>(
        name: impl Into<String>,
        fields: impl IntoIterator<Item = (S, Sort)>,
    ) -> CtorDecl {
        let fields = fields
            .into_iter()
            .map(|(selector, sort)| FieldDecl {
                selector: selector.into(),
                sort,
            })
            .collect();
        CtorDecl {
            name: name.into(),
            fields,
        }
    }

    fn text(&self) -> String {
        let mut out = format!("({}", symbol_text(&self.name));
        for field in &self.fields {
            let selector = symbol_text(&field.selector);
            out.push_str(&format!(" ({selector} {})", field.sort.text()));
        }
        out.push(')');
        out
    }
}

/// Words SMT-LIB 2.6 reserves (§3.1), command names included: quoted when used as names.
const RESERVED: &[&str] = &[
    "!",
    "_",
    "as",
    "BINARY",
    "DECIMAL",
    "exists",
    "HEXADECIMAL",
    "forall",
    "let",
    "match",
    "NUMERAL",
    "par",
    "STRING",
    "assert",
    "check-sat",
    "check-sat-assuming",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "declare-fun",
    "declare-sort",
    "define-fun",
    "define-fun-rec",
    "define-funs-rec",
    "define-sort",
    "echo",
    "exit",
    "get-assertions",
    "get-assignment",
    "get-info",
    "get-model",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
    "get-value",
    "pop",
    "push",
    "reset",
    "reset-assertions",
    "set-info",
    "set-logic",
    "set-option",
];

/// The SMT-LIB spelling of a name: itself when it is a simple symbol or already quoted
/// (`|...|`), else `|name|`. Every name the session is given goes through this, so names
/// may be passed plain or pre-quoted.
///
/// # Panics
/// On a name containing `|` or `\` (other than as the quotes of a quoted symbol), which no
/// SMT-LIB symbol can: the callers generate names, so this is an internal error.
pub fn symbol_text(name: &str) -> Cow<'_, str> {
    if is_simple_symbol(name) || is_quoted_symbol(name) {
        return Cow::Borrowed(name);
    }
    assert!(
        !name.contains(['|', '\\']),
        "internal error: `{name}` cannot be spelled as an SMT-LIB symbol"
    );
    Cow::Owned(format!("|{name}|"))
}

/// The name a symbol denotes: `|a b|` denotes `a b` (solvers print it either way).
pub(crate) fn unquoted(name: &str) -> &str {
    match name.strip_prefix('|').and_then(|n| n.strip_suffix('|')) {
        Some(inner) if is_quoted_symbol(name) => inner,
        _ => name,
    }
}

fn is_quoted_symbol(name: &str) -> bool {
    let inner = name.strip_prefix('|').and_then(|n| n.strip_suffix('|'));
    inner.is_some_and(|inner| !inner.contains(['|', '\\']))
}

fn is_simple_symbol(name: &str) -> bool {
    let extra = "~!@$%^&*_-+=<>.?/";
    let Some(first) = name.chars().next() else {
        return false;
    };
    !first.is_ascii_digit()
        && first != '@'
        && first != '.'
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
        && !RESERVED.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_symbols() {
        assert_eq!(symbol_text("x@1.f"), "x@1.f");
        assert_eq!(symbol_text("K_succ"), "K_succ");
        assert_eq!(symbol_text("1x"), "|1x|");
        assert_eq!(symbol_text("a b"), "|a b|");
        assert_eq!(symbol_text("let"), "|let|");
        assert_eq!(symbol_text("@x"), "|@x|");
        assert_eq!(symbol_text(""), "||");
        assert_eq!(symbol_text("naïve"), "|naïve|");
        assert_eq!(symbol_text("|a b|"), "|a b|");
        assert_eq!(symbol_text("||"), "||");
        assert_eq!(unquoted("|a b|"), "a b");
        assert_eq!(unquoted("a"), "a");
        assert_eq!(unquoted("|"), "|");
    }

    #[test]
    fn refuses_names_no_symbol_can_spell() {
        assert!(std::panic::catch_unwind(|| symbol_text("a|b").into_owned()).is_err());
    }

    #[test]
    fn renders_mutually_recursive_declarations() {
        let list = DatatypeDecl::new(
            "IntList",
            vec![
                CtorDecl::new::<&str>("nil", []),
                CtorDecl::new(
                    "cons",
                    [("head", Sort::Int), ("tail", Sort::datatype("IntList"))],
                ),
            ],
        );
        assert_eq!(list.sort_text(), "(IntList 0)");
        assert_eq!(
            list.ctors_text(),
            "((nil) (cons (head Int) (tail IntList)))"
        );
    }
}
