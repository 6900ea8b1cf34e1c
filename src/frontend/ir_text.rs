//! Reading programs that become IR directly: Boogie programs (`.bpl`, through
//! [`crate::frontend::boogie`]) and our own IR text (`.ir`), with the same error conventions
//! as HORef. [`crate::frontend::load`] calls it for those languages.
//!
//! Guarantees: [`read_ir`] returns a verified IR program or a [`LoadError`] that names the
//! file and, for syntax errors, `file:line:col` with the offending line; never a panic.

use super::{Lang, LoadError};
use crate::diagnostics::Diagnostic;
use crate::span::{SourceFile, Span};
use boogie_like::{Program, parse, verify};

/// `file` read as Boogie (`lang` [`Lang::Boogie`], with `entry` naming its entry procedure)
/// or else as IR text, which is parsed and verified.
pub fn read_ir(file: SourceFile, entry: Option<&str>, lang: Lang) -> Result<Program, LoadError> {
    if lang == Lang::Boogie {
        return crate::frontend::boogie::translate(&file, entry)
            .map_err(|d| super::invalid(file, vec![d]));
    }
    if let Some(entry) = entry {
        let message = format!(
            "`--entry {entry}` names the entry of a Boogie or OCaml file; an IR file marks its own `{{:entrypoint}}`"
        );
        let d = Diagnostic::error(Span::new(0, 0), message, "not a Boogie or OCaml file");
        return Err(super::invalid(file, vec![d]));
    }
    let program = match parse(&file.text) {
        Ok(program) => program,
        Err(e) => {
            let offset = offset_of(&file, e.line, e.col);
            let d = Diagnostic::error(Span::new(offset, offset + 1), e.message.clone(), "here");
            return Err(super::invalid(file, vec![d]));
        }
    };
    verify(&program).map_err(|errors| LoadError::Rejected {
        path: file.name.clone(),
        errors: errors.iter().map(ToString::to_string).collect(),
    })?;
    Ok(program)
}

/// The byte offset of 1-based `line:col` (clamped to the text).
fn offset_of(file: &SourceFile, line: u32, col: u32) -> usize {
    let line_count = file.line_index(file.text.len()) + 1;
    let line = (line.max(1) as usize - 1).min(line_count - 1);
    let range = file.line_range(line);
    let text = &file.text[range.clone()];
    let within = text
        .char_indices()
        .nth(col.max(1) as usize - 1)
        .map_or(text.len(), |(i, _)| i);
    range.start + within
}
