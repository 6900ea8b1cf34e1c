//! The Boogie front end never panics: random token soups and mutations of our own Boogie
//! programs (`tests/boogie/`) either translate or give a diagnostic.

use horef_si::frontend::boogie::lexer::{KEYWORDS, PUNCTS};
use horef_si::frontend::boogie::translate;
use horef_si::span::SourceFile;
use proptest::prelude::*;

/// Extra tokens beyond the lexer's keywords and punctuation.
const EXTRA: &[&str] = &[
    "{:entrypoint}",
    "{:inline 1}",
    "main",
    "x",
    "y",
    "g",
    "L",
    "0",
    "1",
    "\"s\"",
    "/*",
    "*/",
    "//",
    "\n",
];

fn tokens() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = KEYWORDS
        .iter()
        .chain(PUNCTS)
        .chain(EXTRA)
        .copied()
        .collect();
    all.sort();
    all
}

fn programs() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boogie");
    let mut out: Vec<String> = std::fs::read_dir(root)
        .expect("tests/boogie")
        .flatten()
        .filter_map(|d| std::fs::read_to_string(d.path().join("program.bpl")).ok())
        .collect();
    out.sort();
    out
}

fn run(text: &str) {
    let file = SourceFile::new("fuzz.bpl", text.to_string());
    let _ = translate(&file, None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(tokens()), 0..60)) {
        run(&tokens.join(" "));
    }

    #[test]
    fn mutated_programs_never_panic(pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(),
                                     len in 0usize..12, insert in prop::sample::select(tokens())) {
        let all = programs();
        let text = &all[pick.index(all.len())];
        let chars: Vec<char> = text.chars().collect();
        let at = cut.index(chars.len() + 1);
        let end = (at + len).min(chars.len());
        let mutated: String = chars[..at].iter().collect::<String>() + insert + &chars[end..].iter().collect::<String>();
        run(&mutated);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "procedure {{:entrypoint}} main() {{ assert {}true{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let file = SourceFile::new("deep.bpl", deep);
    let err = translate(&file, None).expect_err("too deep");
    assert!(err.message.contains("nests deeper"), "{}", err.message);
    let ifs = format!(
        "procedure {{:entrypoint}} main() {{ {} }}",
        "if (true) { ".repeat(3000) + &"}".repeat(3000)
    );
    let file = SourceFile::new("deep.bpl", ifs);
    assert!(translate(&file, None).is_err());
}
