//! The commands quoted in the docs run and give what the docs claim, so the docs cannot drift.
//!
//! Every fenced block of `README.md` and `docs/**/*.md` whose language is `console`, `sh`,
//! `bash` or `shell` is a command block, and one test here (named `FILE:LINE` of its fence):
//!
//! - ```` ```console ````: each line `$ COMMAND` is run by `bash -c` in the repository root,
//!   with the `horef-si` under test first on PATH (`./target/release/horef-si` in a command
//!   means that binary too). The lines after it, up to the next `$ ` line, are its claimed
//!   output, matched line by line against its stdout followed by its stderr: a line `...`
//!   stands for any number of lines, `[..]` inside a line for any text, and a last line
//!   `? N` is the claimed exit code (0 when absent). No output lines claims no output.
//! - `needs-shared` after the language (```` ```console needs-shared ````): the block names
//!   `../shared/bmc2-suite`; it is reported as ignored when that folder is absent.
//! - `not-checked: REASON` after the language: a command that cannot run here (it builds
//!   or tests the whole workspace, takes minutes, ...). It is reported as ignored, with the
//!   reason; a command block that is neither checked nor marked fails.
//!
//! Set-up commands are `not-checked`; [`ci_takes_the_readme_route`] checks that `.ci/run`
//! runs each of their steps. More files: add a pattern to [`DOC_FILES`].

mod common;

use common::{CliRun, run_limited};
use libtest_mimic::{Arguments, Failed, Trial};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The documents whose command blocks are checked: files, or directories searched
/// recursively for `*.md`, relative to the repository root.
const DOC_FILES: &[&str] = &["README.md", "docs"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn shared_suite_present() -> bool {
    root().join("../shared/bmc2-suite").is_dir()
}

fn main() {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = doc_files()
        .iter()
        .flat_map(|f| blocks(f))
        .map(trial)
        .collect();
    trials.push(Trial::test("ci_takes_the_readme_route", || {
        ci_takes_the_readme_route();
        Ok(())
    }));
    trials.push(Trial::test("the_matcher_accepts_and_rejects", || {
        the_matcher_accepts_and_rejects();
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// One fenced command block of a document.
#[derive(Debug, Clone)]
struct Block {
    /// `FILE:LINE` of the opening fence, relative to the repository root.
    name: String,
    /// What follows the language in the info string.
    marks: String,
    /// The language: `console`, `sh`, ...
    language: String,
    text: String,
}

impl Block {
    fn not_checked_reason(&self) -> Option<&str> {
        self.marks
            .split_once("not-checked:")
            .map(|(_, reason)| reason.trim())
    }
}

fn doc_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in DOC_FILES {
        collect_md(&root().join(entry), &mut files);
    }
    files.sort();
    files
}

fn collect_md(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let entries = std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() || path.extension().is_some_and(|e| e == "md") {
            collect_md(&path, out);
        }
    }
}

/// The command blocks of `file`.
fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).expect("readable doc");
    let relative = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    for (event, range) in Parser::new(&text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let (language, marks) = info.split_once(' ').unwrap_or((&info, ""));
                let line = text[..range.start].lines().count() + 1;
                open = Some(Block {
                    name: format!("{relative}:{line}"),
                    language: language.to_string(),
                    marks: marks.trim().to_string(),
                    text: String::new(),
                });
            }
            Event::Text(t) => open.iter_mut().for_each(|b| b.text.push_str(&t)),
            Event::End(TagEnd::CodeBlock) => found.extend(open.take()),
            _ => {}
        }
    }
    found.retain(|b| ["console", "sh", "bash", "shell"].contains(&b.language.as_str()));
    found
}

fn trial(block: Block) -> Trial {
    let ignored = block.not_checked_reason().is_some()
        || (block.marks.contains("needs-shared") && !shared_suite_present());
    let kind = if block.not_checked_reason().is_some() {
        "not checked"
    } else if block.marks.contains("needs-shared") {
        "needs ../shared/bmc2-suite"
    } else {
        ""
    };
    let name = block.name.clone();
    Trial::test(name, move || check_block(&block))
        .with_kind(kind)
        .with_ignored_flag(ignored)
}

fn check_block(block: &Block) -> Result<(), Failed> {
    if let Some(reason) = block.not_checked_reason() {
        if reason.is_empty() {
            return Err("`not-checked:` needs a reason".into());
        }
        return Ok(());
    }
    if block.language != "console" {
        return Err(format!(
            "a ```{} block: make it ```console with `$ ` lines and their output, \
             or mark it `not-checked: REASON`",
            block.language
        )
        .into());
    }
    let claims = claims(&block.text)?;
    for claim in &claims {
        check_claim(claim).map_err(|why| format!("`$ {}`: {why}", claim.command))?;
    }
    Ok(())
}

/// One `$ COMMAND` line with the output and exit code claimed for it.
struct Claim {
    command: String,
    output: Vec<String>,
    exit: i32,
}

fn claims(text: &str) -> Result<Vec<Claim>, Failed> {
    let mut claims: Vec<Claim> = Vec::new();
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            claims.push(Claim {
                command: command.to_string(),
                output: Vec::new(),
                exit: 0,
            });
        } else if let Some(claim) = claims.last_mut() {
            claim.output.push(line.to_string());
        } else {
            return Err(format!("output before the first `$ ` line: {line}").into());
        }
    }
    for claim in &mut claims {
        let last = claim.output.last().and_then(|l| l.strip_prefix("? "));
        if let Some(code) = last {
            claim.exit = code.trim().parse().map_err(|_| format!("bad `? {code}`"))?;
            claim.output.pop();
        }
    }
    if claims.is_empty() {
        return Err("a ```console block without a `$ ` line".into());
    }
    Ok(claims)
}

fn check_claim(claim: &Claim) -> Result<(), String> {
    let run = run_command(&claim.command);
    let actual: Vec<&str> = run.stdout.lines().chain(run.stderr.lines()).collect();
    if run.code != Some(claim.exit) {
        return Err(format!(
            "exit code {:?}, the doc claims {}\n{run:#?}",
            run.code, claim.exit
        ));
    }
    let expected: Vec<&str> = claim.output.iter().map(String::as_str).collect();
    if !lines_match(&expected, &actual) {
        return Err(format!(
            "the output differs from the doc's\n--- doc:\n{}\n--- actual:\n{}",
            expected.join("\n"),
            actual.join("\n")
        ));
    }
    Ok(())
}

/// Runs `command` by `bash -c` in the repository root, with the binary under test on PATH.
fn run_command(command: &str) -> CliRun {
    let binary = Path::new(env!("CARGO_BIN_EXE_horef-si"));
    let command = command.replace("./target/release/horef-si", "horef-si");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(binary.parent().expect("bin dir").to_path_buf())
        .chain(std::env::split_paths(&path));
    let mut bash = Command::new("bash");
    bash.args(["-c", &command])
        .current_dir(root())
        .env("PATH", std::env::join_paths(dirs).expect("PATH"));
    run_limited(bash)
}

/// Whether `actual` matches the pattern lines `expected` (`...` = any lines, `[..]` = any
/// text within a line).
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && lines_match(rest, more)),
    }
}

/// Whether `line` matches `pattern`, where each `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// `.ci/run` takes the README's set-up route: it runs every step (`&&`-separated) of the
/// README's `not-checked` set-up commands, except building and running the release binary.
fn ci_takes_the_readme_route() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    let readme = blocks(&root().join("README.md"));
    let setup: Vec<&Block> = readme.iter().filter(|b| b.language == "sh").collect();
    assert_eq!(setup.len(), 2, "the README has two set-up commands");
    for step in setup.iter().flat_map(|b| b.text.trim().split(" && ")) {
        let step = step.trim();
        if step == "cargo build --release" || step.starts_with("./target/release/horef-si") {
            continue;
        }
        assert!(
            ci.contains(step),
            ".ci/run does not run the README's `{step}`"
        );
    }
}

/// The matcher itself: a matcher that accepted everything would pass every doc.
fn the_matcher_accepts_and_rejects() {
    assert!(lines_match(
        &["BUG", "...", "? x"],
        &["BUG", "a", "b", "? x"]
    ));
    assert!(lines_match(&["...", "end"], &["end"]));
    assert!(lines_match(&["  inputs: n = [..]"], &["  inputs: n = 3"]));
    assert!(lines_match(&["a[..]b[..]c"], &["a-b-b-c"]));
    assert!(lines_match(&[], &[]));
    assert!(!lines_match(&[], &["extra"]));
    assert!(!lines_match(&["BUG"], &["BUG", "extra"]));
    assert!(!lines_match(&["BUG", "..."], &["VERIFIED"]));
    assert!(!lines_match(&["a[..]c"], &["a-b"]));
    assert!(!lines_match(&["x = [..]"], &["y = 3"]));
    assert!(!lines_match(&["ab"], &["abc"]));
}
