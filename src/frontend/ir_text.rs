//! Loading files that become IR directly: Boogie programs (`.bpl`, through
//! [`crate::frontend::boogie`]) and our own IR text (`.ir`), with the same error conventions
//! as HORef.
//!
//! Guarantees: [`load_ir`] returns a verified IR program or a message that names the file
//! and, for syntax errors, `file:line:col` with the offending line; never a panic.

use crate::diagnostics::{Diagnostic, render_all};
use crate::span::{SourceFile, Span};
use boogie_like::{Program, parse, verify};
use std::path::Path;

/// Whether `path` names a file that becomes IR directly (Boogie `.bpl` or IR text `.ir`)
/// rather than a HORef or OCaml file.
pub fn is_ir_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "bpl" || e == "ir")
}

/// Reads the file at `path`: a Boogie program (`.bpl`) is translated, with `entry` naming
/// its entry procedure; IR text is parsed and verified. The error is a rendered message.
pub fn load_ir(path: &Path, entry: Option<&str>) -> Result<Program, String> {
    load_ir_as(path, entry, super::Lang::of(path, None))
}

/// As [`load_ir`] (stdin for `-`), read as Boogie (`lang` [`super::Lang::Boogie`]) or else as
/// IR text, whatever the name says.
pub fn load_ir_as(path: &Path, entry: Option<&str>, lang: super::Lang) -> Result<Program, String> {
    let (name, bytes) = super::lang::read(path).map_err(|e| e.render())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "error: {name}: the file is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let file = SourceFile::new(name.clone(), text);
    if lang == super::Lang::Boogie {
        return crate::frontend::boogie::translate(&file, entry)
            .map_err(|d| render_all(&[d], &file));
    }
    if entry.is_some() {
        return Err(format!(
            "error: `--entry` names the entry of a Boogie or OCaml file; the IR file {name} marks its own `{{:entrypoint}}`"
        ));
    }
    let program = parse(&file.text).map_err(|e| {
        let offset = offset_of(&file, e.line, e.col);
        let d = Diagnostic::error(Span::new(offset, offset + 1), e.message.clone(), "here");
        render_all(&[d], &file)
    })?;
    verify(&program).map_err(|errors| {
        errors
            .iter()
            .map(|e| format!("error: {name}: {e}"))
            .collect::<Vec<_>>()
            .join("\n")
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
