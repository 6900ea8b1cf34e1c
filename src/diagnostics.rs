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
        let (shown, marked) = expand_tabs(
            &file.text[shown_start..shown_end],
            (start - shown_start)..(end.min(shown_end) - shown_start),
        );
        let (shown, marked) = clip_long(shown, marked);
        let (title, label) = (elide(&self.message), elide(&self.label));
        let level = match self.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        let snippet = Snippet::source(&shown)
            .line_start(first_line + 1)
            .origin(&file.name)
            .annotation(level.span(marked).label(&label));
        let mut message = level.title(&title).snippet(snippet);
        for note in &self.notes {
            message = message.footer(Level::Note.title(note));
        }
        Renderer::plain().render(message).to_string()
    }
}

/// How many columns a tab in a shown line takes.
const TAB_WIDTH: usize = 4;

/// `shown` with every tab as [`TAB_WIDTH`] spaces and `marked` moved along, so that the
/// marker stands under what it marks (the renderer would count a tab as one column).
fn expand_tabs(shown: &str, marked: std::ops::Range<usize>) -> (String, std::ops::Range<usize>) {
    let moved = |offset: usize| offset + (TAB_WIDTH - 1) * shown[..offset].matches('\t').count();
    let expanded = shown.replace('\t', &" ".repeat(TAB_WIDTH));
    (expanded, moved(marked.start)..moved(marked.end))
}

/// Past this many bytes, the source shown is clipped after the marker ([`clip_long`]) and a
/// message is elided in its middle ([`elide`]): a megabyte-long name is not echoed.
const LONG: usize = 1000;

/// How much of a long source text is shown on each side of the marker, and marked at most.
const AROUND: usize = 80;

/// A [`LONG`] shown text cut [`AROUND`] bytes after its (at most [`AROUND`]-byte) marker.
fn clip_long(shown: String, marked: std::ops::Range<usize>) -> (String, std::ops::Range<usize>) {
    if shown.len() <= LONG {
        return (shown, marked);
    }
    let mark_end = ceil_boundary(&shown, marked.end.min(marked.start + AROUND));
    let cut = ceil_boundary(&shown, mark_end + AROUND);
    let mut clipped = shown[..cut].to_string();
    if cut < shown.len() {
        clipped.push_str(" ...");
    }
    (clipped, marked.start..mark_end)
}

/// `text`, or its first and last part around " ... " when it is longer than [`LONG`].
fn elide(text: &str) -> String {
    if text.len() <= LONG {
        return text.to_string();
    }
    let head = floor_boundary(text, AROUND);
    let tail = ceil_boundary(text, text.len() - AROUND);
    format!("{} ... {}", &text[..head], &text[tail..])
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

/// The most diagnostics [`render_all`] shows; the rest are counted.
pub const MAX_SHOWN: usize = 20;

/// Renders every diagnostic (the first [`MAX_SHOWN`], then how many more there are),
/// separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], file: &SourceFile) -> String {
    let mut shown: Vec<String> = diagnostics
        .iter()
        .take(MAX_SHOWN)
        .map(|d| d.render(file))
        .collect();
    if diagnostics.len() > MAX_SHOWN {
        let more = diagnostics.len() - MAX_SHOWN;
        shown.push(format!(
            "... and {more} more {} not shown",
            if more == 1 {
                "diagnostic"
            } else {
                "diagnostics"
            }
        ));
    }
    shown.join("\n\n")
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

    #[test]
    fn a_megabyte_name_is_shown_in_part() {
        let name = "x".repeat(1_000_000);
        let file = SourceFile::new(
            "p.horef",
            format!("Main (n:Int) :Unit:\n  assert ({name} == 1)\n"),
        );
        let at = file.text.find('x').expect("in the text");
        let d = Diagnostic::error(
            Span::new(at, at + name.len()),
            format!("unknown name `{name}`"),
            "not in scope",
        );
        let text = d.render(&file);
        assert!(text.len() < 2000, "{} bytes", text.len());
        assert!(text.contains("p.horef:2:11"), "{text}");
        assert!(text.contains("unknown name `xxx"), "{text}");
    }

    #[test]
    fn many_diagnostics_are_capped_and_counted() {
        let file = SourceFile::new("p.horef", "Main (n:Int) :Unit: ()\n");
        let one = Diagnostic::error(Span::new(0, 1), "bad", "here");
        let text = render_all(&vec![one; MAX_SHOWN + 3], &file);
        assert_eq!(text.matches("error: bad").count(), MAX_SHOWN, "{text}");
        assert!(
            text.ends_with("... and 3 more diagnostics not shown"),
            "{text}"
        );
    }

    #[test]
    fn a_tab_before_the_error_keeps_the_marker_under_it() {
        let file = SourceFile::new("p.horef", "Main (n:Int) :Unit:\n\t\tassert (m == 1)\n");
        let at = file.text.find("m ==").expect("in the text");
        let d = Diagnostic::error(Span::new(at, at + 1), "unknown name `m`", "here");
        let text = d.render(&file);
        let lines: Vec<&str> = text.lines().collect();
        let source = lines
            .iter()
            .find(|l| l.contains("assert"))
            .expect("the line is shown");
        let marker = lines
            .iter()
            .find(|l| l.contains("^ here"))
            .expect("a marker");
        let column = |line: &str, what: &str| line.find(what).expect("found");
        assert_eq!(column(source, "m =="), column(marker, "^"), "{text}");
    }
}
