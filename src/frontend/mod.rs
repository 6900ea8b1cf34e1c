//! The front ends as one call: [`load`] reads a program in any language (the one
//! [`Lang::of`] names: `--lang`, else the extension), parses and checks it, and returns it
//! as the verifier takes it ([`Loaded`]): HORef ([`horef`]) and OCaml ([`ocaml`]) as a
//! checked program of the core language, Boogie ([`boogie`]) and IR text ([`ir_text`]) as
//! an IR program.
//!
//! Guarantees: [`load`] either returns a program or a [`LoadError`] whose diagnostics point
//! into the file; unreadable files and non-UTF-8 bytes are diagnostics too, never panics. What is
//! accepted only for compatibility with the BMC-2 tool (a method declared again) comes back
//! as warnings in [`Checked::warnings`]; [`strict`] turns them into errors.

pub use crate::core_lang::Checked;
use crate::core_lang::ast::{IntModel, Program};
use crate::core_lang::names::FunctionNames;
use crate::core_lang::typecheck::{TypeInfo, check_program};
use crate::diagnostics::{Diagnostic, Severity};
use crate::frontend::horef::parse_program;
use crate::span::{SourceFile, Span};
pub use lang::Lang;
use std::path::Path;

/// With `on`, an OCaml program checks its arithmetic for overflow ([`IntModel::OCaml`]);
/// a HORef program's integers are unbounded and stay so.
pub fn with_overflow_checks(mut checked: Checked, on: bool) -> Checked {
    if on && let IntModel::OCaml { .. } = checked.program.ints {
        checked.program.ints = IntModel::OCaml {
            overflow_checks: true,
        };
    }
    checked
}

/// The program if it has no warnings; else the warnings, as errors (`--strict`).
pub fn strict(checked: Checked) -> Result<Checked, LoadError> {
    if checked.warnings.is_empty() {
        return Ok(checked);
    }
    let diagnostics = checked
        .warnings
        .into_iter()
        .map(|w| Diagnostic {
            severity: Severity::Error,
            ..w
        })
        .collect();
    Err(invalid(checked.file, diagnostics))
}

/// Why a file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read at all.
    Io { path: String, error: std::io::Error },
    /// The file was read but is not a valid program.
    Invalid {
        file: SourceFile,
        diagnostics: Vec<Diagnostic>,
    },
    /// An IR program that parses but breaks the IR's rules (`boogie_like::verify`, whose
    /// errors name procedures, not positions).
    Rejected { path: String, errors: Vec<String> },
}

impl LoadError {
    /// The full message for a terminal: every diagnostic with its source line.
    pub fn render(&self) -> String {
        match self {
            LoadError::Io { path, error } => format!("error: cannot read `{path}`: {error}"),
            LoadError::Invalid { file, diagnostics } => {
                crate::diagnostics::render_all(diagnostics, file)
            }
            LoadError::Rejected { path, errors } => errors
                .iter()
                .map(|e| format!("error: {path}: {e}"))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// A program as its front end leaves it.
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per run, moved at most once: a box would only add an indirection"
)]
pub enum Loaded {
    /// A checked program of the core language (HORef, OCaml).
    Core(Checked),
    /// An IR program (Boogie, IR text).
    Ir(boogie_like::Program),
}

/// Reads the program at `path` (stdin for `-`) in its language ([`Lang::of`] with
/// `options.lang`), parses and checks it: the one load of every subcommand. A core program
/// gets `options`' overflow checks, and with `options.strict` its warnings are errors;
/// `options.entry` names the entry of an OCaml or Boogie program (naming one for HORef or
/// IR text, whose entries are fixed, is an error).
pub fn load(path: &Path, options: LoadOptions) -> Result<Loaded, LoadError> {
    let language = Lang::of(path, options.lang);
    let (name, bytes) = lang::read(path)?;
    if language.is_ir() {
        let file = source_file(&name, &bytes)?;
        return ir_text::read_ir(file, options.entry, language).map(Loaded::Ir);
    }
    let ocaml = language == Lang::Ocaml;
    let checked = load_source_as(&name, &bytes, options.entry, ocaml)?;
    let checked = with_overflow_checks(checked, options.overflow_checks);
    match options.strict {
        true => strict(checked).map(Loaded::Core),
        false => Ok(Loaded::Core(checked)),
    }
}

/// The core program at `path` (HORef, or OCaml by its extension), with default options; a
/// Boogie or IR file is an error here.
pub fn load_core(path: &Path) -> Result<Checked, LoadError> {
    match load(path, LoadOptions::default())? {
        Loaded::Core(checked) => Ok(checked),
        Loaded::Ir(_) => Err(LoadError::Rejected {
            path: path.display().to_string(),
            errors: vec!["a Boogie or IR program, where a HORef or OCaml one is needed".into()],
        }),
    }
}

/// How a subcommand loads a file: `--strict`, `--entry`, `--overflow-checks` and `--lang`.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions<'a> {
    pub strict: bool,
    pub entry: Option<&'a str>,
    /// `--overflow-checks` ([`Checked::with_overflow_checks`]).
    pub overflow_checks: bool,
    /// The language (`None`: by the file's extension, [`Lang::of`]).
    pub lang: Option<Lang>,
}

/// Parses and checks `bytes` as the contents of a file called `name`.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Checked, LoadError> {
    load_source(name, bytes, None)
}

/// Parses and checks `bytes` as the contents of a file called `name`, with the entry
/// function of a `.ml` file named (`--entry`). Deterministic: the same arguments give the
/// same program.
pub fn load_source(name: &str, bytes: &[u8], entry: Option<&str>) -> Result<Checked, LoadError> {
    load_source_as(name, bytes, entry, is_ocaml_file(name))
}

/// As [`load_source`], read as OCaml or (`ocaml` false) as HORef whatever the name says.
pub fn load_source_as(
    name: &str,
    bytes: &[u8],
    entry: Option<&str>,
    ocaml: bool,
) -> Result<Checked, LoadError> {
    let file = source_file(name, bytes)?;
    let parsed = match (ocaml, entry) {
        (true, _) => ocaml::translate(&file.text, entry),
        (false, None) => parse_program(&file.text),
        (false, Some(_)) => {
            let message = "`--entry` names the entry function of an OCaml (`.ml`) file; a HORef file's entry is its `Main`";
            let d = Diagnostic::error(Span::new(0, 0), message, "not an OCaml file");
            return Err(invalid(file, vec![d]));
        }
    };
    let program = match parsed {
        Ok(program) => program,
        Err(d) => return Err(invalid(file, vec![d])),
    };
    let info = match check_program(&program) {
        Ok(info) => info,
        Err(diagnostics) if ocaml => {
            return Err(invalid(file, translation_bug(diagnostics)));
        }
        Err(diagnostics) => return Err(invalid(file, diagnostics)),
    };
    let names = FunctionNames::new(&program, &file);
    let warnings = redeclaration_warnings(&program, &info, &file);
    Ok(Checked {
        file,
        program,
        info,
        names,
        entry: entry.map(str::to_string),
        ocaml,
        warnings,
    })
}

/// Whether `name` is an OCaml source file (`.ml`), read by [`ocaml`].
pub fn is_ocaml_file(name: &str) -> bool {
    name.ends_with(".ml")
}

/// The core checker rejecting a translated OCaml program is a bug of the translation, not
/// of the input: say so, keeping the positions.
fn translation_bug(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .map(|mut d| {
            d.message = format!(
                "internal error: the OCaml translation produced an ill-typed core program: {}",
                d.message
            );
            d
        })
        .collect()
}

/// One warning per re-declared method, naming both declarations as `file:line:col`.
fn redeclaration_warnings(
    program: &Program,
    info: &TypeInfo,
    file: &SourceFile,
) -> Vec<Diagnostic> {
    let at = |span: Span| format!("{}:{}", file.name, file.line_col(span.start as usize));
    info.redeclarations
        .iter()
        .map(|r| {
            let (previous, again) = (program.method(r.previous), program.method(r.again));
            let name = &again.name.name;
            Diagnostic::warning(
                again.name.span,
                format!(
                    "the method `{name}` is declared again at {}; it was declared at {}",
                    at(again.name.span),
                    at(previous.name.span)
                ),
                "declared again here",
            )
            .with_note(format!(
                "as the BMC-2 tool does, the methods after this one and `Main` call this \
                 declaration, the methods before it keep calling the one at {}; \
                 `--strict` makes this an error",
                at(previous.name.span)
            ))
        })
        .collect()
}

fn invalid(file: SourceFile, diagnostics: Vec<Diagnostic>) -> LoadError {
    LoadError::Invalid { file, diagnostics }
}

/// `bytes` as the text of a file called `name`; bytes that are not UTF-8 are a
/// diagnostic at the first bad one.
fn source_file(name: &str, bytes: &[u8]) -> Result<SourceFile, LoadError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(name, text.to_string())),
        Err(e) => Err(not_utf8(name, bytes, e)),
    }
}

fn not_utf8(name: &str, bytes: &[u8], e: std::str::Utf8Error) -> LoadError {
    let at = e.valid_up_to();
    let file = SourceFile::new(name, String::from_utf8_lossy(bytes).into_owned());
    let lossy_at = String::from_utf8_lossy(&bytes[..at]).len();
    let d = Diagnostic::error(
        Span::new(lossy_at, lossy_at + 1),
        format!("the file is not valid UTF-8 (byte {at})"),
        "invalid byte here",
    );
    invalid(file, vec![d])
}

pub mod boogie;
pub mod horef;
pub mod ir_text;
pub mod lang;
pub mod ocaml;
