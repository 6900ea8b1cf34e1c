//! The command line: exit codes and output (README's table), and bad input of every kind,
//! which must end with exit 2 and a `file:line:col` — never a panic, a stack overflow or a
//! hang. (The checks on `../shared/bmc2-suite` are in `shared_suite.rs`.)

use crate::common;

use common::{CliRun, Rng, horef_si, location_after, tests_dir};
use std::path::Path;

fn program(name: &str) -> String {
    tests_dir()
        .join("programs")
        .join(name)
        .display()
        .to_string()
}

/// Writes `contents` to `name` in a fresh directory that lives as long as the result.
fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("write temporary file");
    (dir, path.display().to_string())
}

fn check(path: &str) -> CliRun {
    horef_si(["check", path])
}

// ----- BMC-2 compatibility -----

/// A method declared twice is accepted with a warning naming both places; `--strict`
/// rejects it (exit 2) with the same locations.
#[test]
fn a_redeclared_method_warns_with_both_places_and_strict_rejects_it() {
    let path = program("redeclared.horef");
    let run = check(&path);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(run.stdout.starts_with("ok: "), "{run:#?}");
    let both = format!("declared again at {path}:12:1; it was declared at {path}:10:1");
    assert!(run.stderr.starts_with("warning: "), "{run:#?}");
    assert!(run.stderr.contains(&both), "{run:#?}");
    for args in [["--strict", "check"], ["check", "--strict"]] {
        let strict = horef_si([args[0], args[1], path.as_str()]);
        assert_eq!(strict.code, Some(2), "{strict:#?}");
        assert!(strict.stderr.starts_with("error: "), "{strict:#?}");
        assert!(strict.stderr.contains(&both), "{strict:#?}");
        assert!(strict.stdout.is_empty(), "{strict:#?}");
    }
}

// ----- exit codes and output -----

#[test]
fn check_of_a_valid_program_exits_0() {
    let path = program("compose.horef");
    let run = check(&path);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(run.stdout.starts_with("ok: "), "{run:#?}");
    assert!(run.stderr.is_empty(), "{run:#?}");
}

#[test]
fn run_to_a_value_exits_0() {
    let path = program("compose.horef");
    let run = horef_si(["run", &path, "--arg", "n=3", "--max-depth", "3"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(run.stdout.trim(), "value: 15");
}

#[test]
fn a_failing_run_exits_10_and_names_the_assertion() {
    let path = program("short_circuit.horef");
    let run = horef_si(["run", &path, "--arg", "n=4", "--max-depth", "1"]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    let first = run.stdout.lines().next().unwrap_or("");
    assert_eq!(first, "failure at 12:36 (assert)", "{run:#?}");
}

#[test]
fn a_cut_off_run_exits_0() {
    let path = program("depth_boundary.horef");
    let run = horef_si(["run", &path, "--arg", "n=5", "--max-depth", "6"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(
        run.stdout.starts_with("cut off at depth 6: "),
        "{}",
        run.stdout
    );
}

#[test]
fn a_missing_arg_exits_2_and_names_the_parameter() {
    let path = program("pairs.horef");
    let run = horef_si(["run", &path, "--arg", "a=1"]);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains('b'), "{}", run.stderr);
    assert!(run.stderr.contains("--arg b="), "{}", run.stderr);
    assert!(!run.stderr.contains("--arg a="), "{}", run.stderr);
}

#[test]
fn a_bad_arg_exits_2() {
    let path = program("pairs.horef");
    for args in [
        vec!["--arg", "a=1", "--arg", "b=x"],
        vec!["--arg", "a=1", "--arg", "b=2", "--arg", "c=3"],
        vec!["--arg", "a=1", "--arg", "a=2", "--arg", "b=2"],
        vec!["--arg", "a1", "--arg", "b=2"],
    ] {
        let run = horef_si(["run", path.as_str()].into_iter().chain(args.clone()));
        assert_eq!(run.code, Some(2), "{args:?}: {run:#?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {run:#?}");
    }
}

#[test]
fn a_missing_file_exits_2() {
    let run = check("/nonexistent/dir/p.horef");
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("/nonexistent/dir/p.horef"), "{run:#?}");
}

#[test]
fn usage_errors_exit_1() {
    for args in [
        vec!["frobnicate"],
        vec![],
        vec!["check"],
        vec!["run", "p.horef", "--max-depth", "deep"],
        vec!["check", "--no-such-flag", "p.horef"],
    ] {
        let run = horef_si(&args);
        assert_eq!(run.code, Some(1), "{args:?}: {run:#?}");
    }
}

#[test]
fn help_lists_the_exit_codes() {
    for args in [
        vec!["--help"],
        vec!["run", "--help"],
        vec!["check", "--help"],
    ] {
        let run = horef_si(&args);
        assert_eq!(run.code, Some(0), "{run:#?}");
        assert!(run.stdout.contains("Exit codes:"), "{}", run.stdout);
        for code in ["0", "1", "2", "5", "6", "10"] {
            let listed = run
                .stdout
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{code} ")));
            assert!(listed, "exit code {code} missing from {args:?} help");
        }
    }
}

#[test]
fn running_out_of_steps_is_inconclusive() {
    let path = program("short_circuit.horef");
    let run = horef_si([
        "run",
        &path,
        "--arg",
        "n=2",
        "--max-depth",
        "200",
        "--max-steps",
        "50",
    ]);
    assert_eq!(run.code, Some(5), "{run:#?}");
    assert!(run.stdout.starts_with("inconclusive"), "{run:#?}");
}

#[test]
fn trace_prints_calls_and_returns_with_depths() {
    let path = program("mutual.horef");
    let run = horef_si(["run", &path, "--arg", "n=1", "--max-depth", "3", "--trace"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    let lines: Vec<&str> = run.stdout.lines().map(str::trim).collect();
    // even 1 -> odd 0, then odd 1 -> even 0; Main = even 1 * 10 + odd 1 = 0 * 10 + 1.
    let expected = [
        ("call even(1)", "depth 1"),
        ("call odd(0)", "depth 2"),
        ("return odd = 0", "depth 2"),
        ("return even = 0", "depth 1"),
        ("call odd(1)", "depth 1"),
        ("call even(0)", "depth 2"),
        ("return even = 1", "depth 2"),
        ("return odd = 1", "depth 1"),
        ("value: 1", ""),
    ];
    assert_eq!(lines.len(), expected.len(), "{}", run.stdout);
    for (line, (start, end)) in lines.iter().zip(expected) {
        assert!(line.starts_with(start) && line.ends_with(end), "{line}");
    }
}

// ----- bad input: exit 2 with file:line:col, no panic, no hang -----

#[test]
fn every_error_file_exits_2_with_a_location() {
    for kind in ["parse", "type"] {
        let dir = tests_dir().join("errors").join(kind);
        for entry in std::fs::read_dir(&dir).expect("error files") {
            let path = entry.expect("directory entry").path().display().to_string();
            check(&path).assert_input_error(&path, &path);
            horef_si(["run", &path]).assert_input_error(&path, &path);
        }
    }
}

#[test]
fn every_token_prefix_of_a_program_is_handled() {
    for name in ["church.horef", "hooks.horef", "pairs.horef"] {
        let path = tests_dir().join("programs").join(name);
        let text = std::fs::read_to_string(&path).expect("program");
        let tokens = horef_si::frontend::horef::lexer::lex(&text).expect("program lexes");
        let dir = tempfile::tempdir().expect("temporary directory");
        for token in &tokens[..tokens.len() - 1] {
            let prefix = &text[..token.span.end as usize];
            let file = dir.path().join(name).display().to_string();
            std::fs::write(&file, prefix).expect("write prefix");
            let what = format!("{name} cut after byte {}", token.span.end);
            let run = check(&file);
            if horef_si::frontend::load_bytes(&file, prefix.as_bytes()).is_ok() {
                assert_eq!(run.code, Some(0), "{what}: valid prefix\n{run:#?}");
            } else {
                run.assert_input_error(&file, &what);
            }
        }
    }
}

#[test]
fn unknown_names_type_errors_arity_and_missing_main_exit_2() {
    let cases = [
        ("unknown.horef", "Main (n:Int) :Int: m + 1"),
        ("unknown_method.horef", "Main (n:Int) :Int: f n"),
        ("unknown_ref.horef", "Main (n:Int) :Int: !r"),
        ("type.horef", "Main (n:Int) :Int: n + skip"),
        (
            "arity.horef",
            "Methods:\nf (x:Int) :Int = x;\nMain () :Int: f (1, 2)",
        ),
        (
            "arity_fun.horef",
            "Main () :Int: (fun (x:Int, y:Int) :(Int) -> x) 1",
        ),
        ("no_main.horef", "Methods:\nf (x:Int) :Int = x;\n"),
        ("only_store.horef", "Store:\nr:Int := 0;\n"),
        ("empty.horef", ""),
        ("comment_only.horef", "(* nothing here *)\n"),
    ];
    for (name, text) in cases {
        let (_dir, path) = temp_file(name, text);
        check(&path).assert_input_error(&path, name);
    }
}

#[test]
fn random_bytes_exit_2() {
    let alphabet = b"()*:;,=<>-+!&|[]{}abcfilnst01 \n\t\"'_/\\";
    let mut rng = Rng::new(2);
    for i in 0..60 {
        let len = rng.below(3000);
        let bytes = if i % 2 == 0 {
            rng.bytes(len)
        } else {
            (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        let (_dir, path) = temp_file("random.horef", &bytes);
        check(&path).assert_input_error(&path, &format!("random input {i}"));
    }
}

/// `Main () :Int:` followed by `body`, for nesting tests.
fn deep_program(body: String) -> (tempfile::TempDir, String) {
    let text = format!("Methods:\nf (x:Int) :Int = x;\n\nMain () :Int:\n  {body}\n");
    temp_file("deep.horef", text)
}

#[test]
fn deep_nesting_exits_2() {
    const N: usize = 100_000;
    let cases = [
        (
            "parentheses",
            format!("{}1{}", "(".repeat(N), ")".repeat(N)),
        ),
        ("left-assoc +", vec!["1"; N].join(" + ")),
        ("application chain", format!("f {}", vec!["1"; N].join(" "))),
        (
            "nested calls",
            format!("{}1{}", "f (".repeat(N), ")".repeat(N)),
        ),
        ("unary minus", format!("{}1", "- ".repeat(N))),
        ("lets", format!("{}0", "let (x:Int) = 1 in ".repeat(N))),
        ("ifs", format!("{}0", "if 1 then 1 else ".repeat(N))),
        ("cons", format!("hd ({}[])", "1 :: ".repeat(N))),
        (
            "funs",
            format!("({}0) 1", "fun (x:Int) :(Int) -> ".repeat(N)),
        ),
        ("reads", format!("{}x", "!".repeat(N))),
        (
            "allocations",
            format!("{}0{}", "ref (".repeat(N), ")".repeat(N)),
        ),
    ];
    for (what, body) in cases {
        let (_dir, path) = deep_program(body);
        let run = check(&path);
        run.assert_input_error(&path, what);
        assert!(run.stderr.contains("nested too deeply"), "{what}: {run:#?}");
    }
    let types = [
        ("pair type", vec!["Int"; N].join(" * ")),
        ("arrow type", vec!["Int"; N].join(" -> ")),
        (
            "parenthesised type",
            format!("{}Int{}", "(".repeat(N), ")".repeat(N)),
        ),
        ("reference type", format!("{}Int", "Ref ".repeat(N))),
    ];
    for (what, ty) in types {
        let text = format!("Main () :Int:\n  let (x:{ty}) = fail in 0\n");
        let (_dir, path) = temp_file("deep_type.horef", text);
        let run = check(&path);
        run.assert_input_error(&path, what);
        assert!(run.stderr.contains("nested too deeply"), "{what}: {run:#?}");
    }
}

/// `assert` over a chain of `n` terms joined by `op`, in the syntax of `lang` (`horef`,
/// `ml`, `bpl`, `ir`): a property over a long chain that the program's input decides.
fn chain_program(lang: &str, op: &str, n: usize) -> String {
    let logical = matches!(op, "&&" | "||");
    let eq = if lang == "ml" { "=" } else { "==" };
    let terms = vec![if logical { "n > 0" } else { "n" }; n].join(&format!(" {op} "));
    let holds = if logical {
        terms
    } else {
        format!("{terms} {eq} 3")
    };
    match lang {
        "horef" => format!("Main (n:Int) :Int:\n  let (u:Unit) = assert (not ({holds})) in 0\n"),
        "ml" => format!("let main n =\n  assert (not ({holds}))\n"),
        "bpl" => format!("procedure main(n: int)\n{{\n  assert !({holds});\n}}\n"),
        _ => format!("procedure {{:entrypoint}} main(n: int)\n{{\n  assert !({holds});\n}}\n"),
    }
}

/// Chains of 10 000 terms of `+ - * && ||` in every front end: `check`, `run` and `verify`
/// end cleanly (no stack overflow, no panic). The Boogie front end balances such chains and
/// accepts them; HORef, OCaml and IR text reject trees taller than their documented limit
/// with exit 2 and `file:line:col`.
#[test]
fn long_operator_chains_end_cleanly_in_every_front_end() {
    for lang in ["horef", "ml", "bpl", "ir"] {
        for op in ["+", "-", "*", "&&", "||"] {
            let (_dir, path) = temp_file(&format!("chain.{lang}"), chain_program(lang, op, 10_000));
            let commands: [&[&str]; 3] = [
                &["check"],
                &["run", "--arg", "n=1"],
                &["verify", "--max-depth", "1", "--timeout", "20"],
            ];
            for command in commands {
                let run = horef_si(command.iter().copied().chain([path.as_str()]));
                let what = format!("{lang} {op} {command:?}");
                run.assert_no_panic(&what);
                if lang == "bpl" {
                    // With n = 1 the `&&`/`||` chains hold, so their assertion fails.
                    let run_ends = if matches!(op, "&&" | "||") { 10 } else { 0 };
                    let expected: &[i32] = match command[0] {
                        "check" => &[0],
                        "run" => &[run_ends],
                        _ => &[0, 5, 10],
                    };
                    assert!(
                        run.code.is_some_and(|c| expected.contains(&c)),
                        "{what}: {run:#?}"
                    );
                } else {
                    run.assert_input_error(&path, &what);
                    assert!(
                        run.stderr.contains("deeper than") || run.stderr.contains("too deeply"),
                        "{what}: {run:#?}"
                    );
                }
            }
        }
    }
}

/// The Boogie front end keeps chains of non-associative operators as written and rejects
/// them past its height limit (exit 2, `file:line:col`) instead of overflowing the stack.
#[test]
fn a_long_boogie_div_chain_exits_2() {
    let terms = vec!["n"; 5000].join(" div ");
    let text = format!("procedure main(n: int)\n{{\n  assert {terms} != 3;\n}}\n");
    let (_dir, path) = temp_file("div_chain.bpl", text);
    let run = check(&path);
    run.assert_input_error(&path, "a chain of 5000 `div`");
    assert!(run.stderr.contains("nested deeper than 2000"), "{run:#?}");
}

/// `run` on unbounded recursion with a huge depth bound ends at its memory limit (exit 5,
/// a message), whether the limit is `--memory-limit` or the address space (`ulimit -v`);
/// before, it grew until an allocation of the native stack failed and panicked.
#[test]
fn run_on_unbounded_recursion_ends_at_the_memory_limit() {
    let text = "Methods:\nloop (x:Int) :Int = loop x;\nMain (n:Int) :Int: loop n\n";
    let (_dir, path) = temp_file("loop.horef", text);
    let bin = env!("CARGO_BIN_EXE_horef-si");
    let deep = ["--arg", "n=1", "--max-depth", "1000000"];
    let limited = horef_si(
        ["run", path.as_str()]
            .into_iter()
            .chain(deep)
            .chain(["--memory-limit", "200"]),
    );
    let mut ulimit = std::process::Command::new("sh");
    ulimit.arg("-c").arg(format!(
        "ulimit -v 1000000 && exec {bin} run {path} {} --memory-limit 100000",
        deep.join(" ")
    ));
    for (what, run) in [
        ("--memory-limit 200", limited),
        ("ulimit -v 1000000", common::run_limited(ulimit)),
    ] {
        assert_eq!(run.code, Some(5), "{what}: {run:#?}");
        assert!(
            run.stdout.contains("at the memory limit"),
            "{what}: {run:#?}"
        );
        run.assert_no_panic(what);
    }
}

/// `--lang` says what a program is where its name does not (stdin, odd extensions), and
/// every subcommand reads a `.bpl`/`.ir` file as Boogie/IR (`lower --emit chc` too).
#[test]
fn every_subcommand_reads_the_language_lang_or_the_extension_names() {
    let ocaml = "let main n =\n  assert (n * 2 <> 7)\n";
    let (_dir, path) = temp_file("prog.ml", ocaml);
    let bin = env!("CARGO_BIN_EXE_horef-si");
    let mut stdin = std::process::Command::new("sh");
    stdin.arg("-c").arg(format!(
        "exec {bin} verify - --lang ocaml --max-depth 2 < {path}"
    ));
    let run = common::run_limited(stdin);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(run.stdout.starts_with("VERIFIED"), "{run:#?}");
    let (_odd, odd) = temp_file("prog.txt", ocaml);
    let run = horef_si(["run", odd.as_str(), "--lang", "ocaml", "--arg", "n=1"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    let boogie = "procedure main(n: int)\n{\n  assert n + n != 7;\n}\n";
    let (_bpl, bpl) = temp_file("prog.bpl", boogie);
    let run = horef_si(["lower", "--emit", "chc", bpl.as_str()]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert!(run.stdout.starts_with("(set-logic HORN)"), "{run:#?}");
    let run = horef_si(["lower", "--emit", "chc-refine", bpl.as_str()]);
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("Boogie or IR program"), "{run:#?}");
    let (_as_text, as_text) = temp_file("prog.txt", boogie);
    let run = horef_si(["check", "--lang", "boogie", as_text.as_str()]);
    assert_eq!(run.code, Some(0), "{run:#?}");
}

/// A program larger than the input cap (here an endless one) is an input error naming the
/// cap, read no further.
#[test]
fn an_endless_input_exits_2_at_the_size_cap() {
    let run = check("/dev/zero");
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("larger than 64 MiB"), "{run:#?}");
    run.assert_no_panic("/dev/zero");
}

/// `verify --timeout` and `--memory-limit` hold while a huge program (200 000 methods) is
/// read and lowered, not only once the search runs: UNKNOWN, exit 5.
#[test]
fn verify_limits_hold_while_a_huge_program_loads() {
    let mut text = String::from("Methods:\n");
    for i in 0..200_000 {
        text.push_str(&format!(
            "m{i} (x:Int) :Int = if x > {i} then x + {i} else x - 1;\n"
        ));
    }
    text.push_str("Main (n:Int) :Int: let (r:Int) = m0 n in let (u:Unit) = assert (r != 7) in r\n");
    let (_dir, path) = temp_file("huge.horef", text);
    for (limit, reason) in [
        (["--timeout", "1"], "timeout"),
        (["--memory-limit", "100"], "memory"),
    ] {
        let run = horef_si(["verify", path.as_str()].into_iter().chain(limit));
        assert_eq!(run.code, Some(5), "{limit:?}: {run:#?}");
        assert!(run.stdout.starts_with("UNKNOWN"), "{limit:?}: {run:#?}");
        assert!(run.stdout.contains(reason), "{limit:?}: {run:#?}");
        run.assert_no_panic(reason);
    }
}

#[test]
fn nesting_below_the_limit_is_fine() {
    // 1000 levels of every kind of nesting is an ordinary (if odd) program.
    let body = format!(
        "{}{}{}",
        "(f (1 + ".repeat(500),
        vec!["1"; 500].join(" + "),
        "))".repeat(500)
    );
    let (_dir, path) = deep_program(body);
    let run = horef_si(["run", &path, "--max-depth", "1"]);
    assert_eq!(run.code, Some(0), "{run:#?}");
    assert_eq!(run.stdout.trim(), "value: 1000");
}

#[test]
fn a_10_mb_file_with_an_error_at_the_end_exits_2() {
    let mut text = String::from("Store:\nr:Int := 0;\n\nMethods:\n");
    let mut i = 0;
    while text.len() < 10_000_000 {
        text.push_str(&format!(
            "m{i} (x:Int, f:Int -> Int) :Int = if x > {i} then f (x - 1) + !r else m{i} (x + 1, f);\n"
        ));
        i += 1;
    }
    let main_line = text.lines().count() + 2;
    text.push_str("\nMain (n:Int) :Int: m0 (n, skip)\n");
    let (_dir, path) = temp_file("big.horef", &text);
    let run = check(&path);
    run.assert_input_error(&path, "10 MB file");
    assert_eq!(
        location_after(&run.stderr, &path),
        Some((main_line as u32, 27)),
        "{}",
        run.stderr
    );
}

#[test]
fn a_10_mb_line_of_garbage_exits_2() {
    let text = format!("Main () :Int: {}", "1 + (* x *) ".repeat(900_000));
    let (_dir, path) = temp_file("line.horef", &text);
    check(&path).assert_input_error(&path, "10 MB line");
}

#[test]
fn locations_are_found_after_the_file_name() {
    let text = "error: x\n --> dir/p.horef:12:7\n";
    assert_eq!(location_after(text, "dir/p.horef"), Some((12, 7)));
    assert_eq!(location_after(text, "q.horef"), None);
    assert_eq!(location_after("p.horef: oops", "p.horef"), None);
}

// ----- the README's exit-code table -----

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md")
}

#[test]
fn the_readme_lists_every_exit_code() {
    use horef_si::exit_code::ExitCode;
    let text = readme();
    for code in [
        ExitCode::Ok,
        ExitCode::Usage,
        ExitCode::Input,
        ExitCode::Inconclusive,
        ExitCode::Internal,
        ExitCode::Failure,
    ] {
        let row = format!("| {} |", code.code());
        assert!(
            text.contains(&row),
            "README lacks the row for exit code {code:?}"
        );
    }
}

#[test]
fn the_readme_language_example_checks() {
    let text = readme();
    let example = text
        .split("```text\nStore:")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's language example");
    let (_dir, path) = temp_file("readme.horef", format!("Store:{example}"));
    let run = horef_si(["run", &path, "--arg", "n=41"]);
    assert_eq!(run.code, Some(10), "{run:#?}");
    let run = horef_si(["run", &path, "--arg", "n=1"]);
    assert_eq!((run.code, run.stdout.trim()), (Some(0), "value: skip"));
}

#[test]
fn bad_bounds_and_limits_are_refused_alike_with_a_message() {
    let path = program("short_circuit.horef");
    for (flag, value, words) in [
        ("--max-depth", "-1", "is not a depth"),
        ("--memory-limit", "0", "is not a memory limit"),
        ("--timeout", "0", "positive number of seconds"),
    ] {
        let run = horef_si(["verify", &path, flag, value]);
        assert_eq!(run.code, Some(1), "{flag} {value}: {run:#?}");
        assert!(run.stderr.contains(words), "{flag} {value}: {}", run.stderr);
        assert!(
            !run.stderr.contains("-- -1"),
            "no advice to pass it after `--`"
        );
    }
    let run = horef_si(["suite", &path, "--jobs", "0"]);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(
        run.stderr.contains("is not a number of jobs"),
        "{}",
        run.stderr
    );
}
