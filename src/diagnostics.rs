//! Diagnostics as values, rendered with `annotate-snippets`.
//!
//! A [`Diagnostic`] names a span, what was expected and what was found. Rendering always
//! prints `file:line:col`, the offending source line and a marker under the span. Only the
//! lines the span touches are handed to the renderer, so a diagnostic in a 10 MB file costs
//! no more than one in a 10-line file.

use crate::span::{LineCol, SourceFile, Span};
use annotate_snippets::{Level, Renderer, Snippet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// A short label printed under the marked span.
    pub label: String,
    /// Extra lines (`= note: ...`).
    pub notes: Vec<String>,
}

/// The most lines of a multi-line span that a rendering shows.
const MAX_SHOWN_LINES: usize = 4;

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into(),
            notes: Vec::new(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message, label)
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Where the diagnostic points, as `line:col`.
    pub fn position(&self, file: &SourceFile) -> LineCol {
        file.line_col(self.span.start as usize)
    }

    /// Renders the diagnostic as text (no colour): header, `--> file:line:col`, source, notes.
    pub fn render(&self, file: &SourceFile) -> String {
        let start = floor_boundary(&file.text, self.span.start as usize);
        let end = ceil_boundary(&file.text, (self.span.end as usize).max(start));
        let first_line = file.line_index(start);
        let last_line = file.line_index(end).min(first_line + MAX_SHOWN_LINES - 1);
        let shown_start = file.line_range(first_line).start;
        let shown_end = file.line_range(last_line).end;
        let shown = &file.text[shown_start..shown_end];
        let marked = (start - shown_start)..(end.min(shown_end) - shown_start);
        let level = match self.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        let snippet = Snippet::source(shown)
            .line_start(first_line + 1)
            .origin(&file.name)
            .annotation(level.span(marked).label(&self.label));
        let mut message = level.title(&self.message).snippet(snippet);
        for note in &self.notes {
            message = message.footer(Level::Note.title(note));
        }
        Renderer::plain().render(message).to_string()
    }
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn ceil_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

/// Renders every diagnostic, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], file: &SourceFile) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(file))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_file_line_col_and_the_line() {
        let file = SourceFile::new("p.horef", "Main (n:Int) :Unit:\n  assert(m)\n");
        let d = Diagnostic::error(Span::new(29, 30), "unknown name `m`", "not in scope");
        let text = d.render(&file);
        assert!(text.contains("p.horef:2:10"), "{text}");
        assert!(text.contains("assert(m)"), "{text}");
        assert!(text.contains("not in scope"), "{text}");
    }
}
