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
    is_simple_token(name) && !RESERVED.contains(&name)
}

/// A simple symbol's characters (SMT-LIB 2.6, §3.1), reserved words included: what a
/// solver prints without bars.
fn is_simple_token(name: &str) -> bool {
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
}

/// A numeral, decimal, `#x`/`#b` literal or keyword (`:name`): tokens that are not symbols.
fn is_literal_or_keyword(token: &str) -> bool {
    let digits = |s: &str, ok: fn(char) -> bool| !s.is_empty() && s.chars().all(ok);
    if let Some(hex) = token.strip_prefix("#x") {
        return digits(hex, |c| c.is_ascii_hexdigit());
    }
    if let Some(bin) = token.strip_prefix("#b") {
        return digits(bin, |c| c == '0' || c == '1');
    }
    if let Some(keyword) = token.strip_prefix(':') {
        return is_simple_token(keyword);
    }
    let (whole, fraction) = token.split_once('.').unwrap_or((token, "0"));
    digits(whole, |c| c.is_ascii_digit()) && digits(fraction, |c| c.is_ascii_digit())
}

/// How an atom read from a solver's reply is written back: as it was when it is a simple
/// token (reserved words included: `let`, `forall` are syntax there), a literal or a
/// keyword; else as the quoted symbol it was read from (`|main#loop1!rel|`). Reading the
/// result back gives the same atom. (An atom no symbol can spell, with `|` or `\\` in it,
/// is written as it is: never a panic on what a solver printed. A quoted symbol spelled
/// like a literal, `|12|`, comes back as the literal: the reader keeps no bars, and the
/// names we make never look like one.)
pub(crate) fn atom_text(atom: &str) -> Cow<'_, str> {
    if is_simple_token(atom) || is_literal_or_keyword(atom) || atom.contains(['|', '\\']) {
        return Cow::Borrowed(atom);
    }
    Cow::Owned(format!("|{atom}|"))
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

    /// Names as the front ends make them: `#` (Boogie's `x#init`, `main#loop1`), `@`, `'`,
    /// digits first, reserved words, spaces, non-ASCII.
    fn source_name() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let reserved = proptest::sample::select(RESERVED.to_vec()).prop_map(str::to_string);
        let made = "[a-zA-Z0-9_#@'. !:~ä-]{0,12}";
        prop_oneof![
            made.prop_map(|s| s),
            reserved,
            made.prop_map(|s| format!("{s}#init"))
        ]
    }

    proptest::proptest! {
        /// A name spelled by `symbol_text` reads back as itself, as one symbol; written
        /// back from a reply (`atom_text`) it reads back the same again.
        #[test]
        fn every_name_is_spelled_as_one_symbol(name in source_name()) {
            let spelled = symbol_text(&name);
            let read = crate::solver::reply::parse(&spelled).expect("reads back");
            proptest::prop_assert_eq!(read.atom(), Some(name.as_str()));
            let written = format!("(f {read})");
            let again = crate::solver::reply::parse(&written).expect("reads back");
            proptest::prop_assert_eq!(again.list().and_then(|l| l[1].atom()), Some(name.as_str()));
        }
    }

    #[test]
    fn atoms_keep_their_literals_keywords_and_syntax() {
        for atom in [
            "0", "12.5", "#x1F", "#b101", ":named", "let", "forall", "x!0", "a.b",
        ] {
            assert_eq!(atom_text(atom), atom);
        }
        assert_eq!(atom_text("main#loop1!rel"), "|main#loop1!rel|");
        assert_eq!(atom_text("x#init"), "|x#init|");
        assert_eq!(atom_text("a b"), "|a b|");
        assert_eq!(atom_text("1x"), "|1x|");
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
