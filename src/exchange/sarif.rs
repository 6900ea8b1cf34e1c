//! SARIF 2.1.0 logs (for code-scanning dashboards) of `verify` and `suite`, built with the
//! typed `serde-sarif` model.
//!
//! One run per log, tool `horef-si`. Each failing assertion (`assert`, `fail`, `hd []`,
//! `tl []`) is one result: its rule names the kind of failure, its location is the failing
//! expression (columns count characters: `columnKind` `unicodeCodePoints`), its message
//! gives the inputs, and its code flow is the call trace — one `threadFlowLocation` per
//! call at the call site with `nestingLevel` the depth its body runs at (`Main` is 0).
//! `partialFingerprints` hash the file, the failure position and the kind only, so the same
//! bug has the same fingerprint in every run whatever inputs the solver picks. In a suite, a
//! bug found at several depths is one result (the shallowest run's inputs and trace;
//! `properties.depths` lists them all), at level `error` when some of those runs failed
//! their expectation and `note` when the bug was expected; a run that failed its
//! expectation without a bug (a wrong `VERIFIED`, `UNKNOWN`, a load error) is a result of
//! rule `expectation-not-met` at the program.
//!
//! Guarantees: the log validates against the SARIF 2.1.0 schema (`tests/sarif.rs` checks it
//! against the official schema); results come in the order of the rows given.

use crate::engine::verdict::{TraceStep, Verdict};
use serde_json::json;
use serde_sarif::sarif;
use std::collections::BTreeMap;

/// The JSON schema URI written in `$schema`.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The rule of a suite run that failed its expectation without a bug.
pub const EXPECTATION_RULE: &str = "expectation-not-met";
/// The key of our partial fingerprint.
pub const FINGERPRINT_KEY: &str = "horefSiFailure/v1";

/// The rules: one per kind of failure, then [`EXPECTATION_RULE`].
const RULES: [(&str, &str, &str); 5] = [
    (
        "assertion-failure",
        "assert",
        "An assertion can fail for some input within the call-depth bound.",
    ),
    ("fail-reached", "fail", "A `fail` can be reached."),
    (
        "head-of-empty-list",
        "hd []",
        "`hd` can be applied to the empty list.",
    ),
    (
        "tail-of-empty-list",
        "tl []",
        "`tl` can be applied to the empty list.",
    ),
    (
        EXPECTATION_RULE,
        "",
        "A suite run did not give the verdict its program expects.",
    ),
];

/// The log of one `verify` run on `file`.
pub fn verify_log(file: &str, verdict: &Verdict, max_depth: u32) -> sarif::Sarif {
    let results = match verdict {
        Verdict::Bug { .. } => vec![bug_result(
            file,
            verdict,
            &[max_depth],
            sarif::ResultLevel::Error,
        )],
        _ => Vec::new(),
    };
    let notification = match verdict {
        Verdict::Unknown { reason } => Some(reason.describe()),
        _ => None,
    };
    let mut log = log(results, notification);
    // The verdict itself, so that VERIFIED and SAFE UP TO DEPTH K (both without results)
    // can be told apart: `properties.verdict` is the JSON report's `verdict` key.
    let properties = sarif::PropertyBag::builder()
        .additional_properties(BTreeMap::from([
            ("verdict".to_string(), json!(verdict.key())),
            ("maxDepth".to_string(), json!(max_depth)),
        ]))
        .build();
    log.runs[0].properties = Some(properties);
    log
}

/// The log of a run that could not start: the input did not load (its diagnostics, as
/// the terminal shows them, are the notification); no results; `properties.verdict` is
/// `input_error`.
pub fn input_error_log(message_text: &str) -> sarif::Sarif {
    let mut log = log(Vec::new(), None);
    let notification = sarif::Notification::builder()
        .message(message(message_text.to_string()))
        .level(json!("error"))
        .build();
    log.runs[0].invocations = Some(vec![
        sarif::Invocation::builder()
            .execution_successful(false)
            .tool_execution_notifications(vec![notification])
            .build(),
    ]);
    let properties = sarif::PropertyBag::builder()
        .additional_properties(BTreeMap::from([(
            "verdict".to_string(),
            json!("input_error"),
        )]))
        .build();
    log.runs[0].properties = Some(properties);
    log
}

/// The result of a BUG verdict found at `depths` (the first gives the inputs and trace).
pub fn bug_result(
    file: &str,
    verdict: &Verdict,
    depths: &[u32],
    level: sarif::ResultLevel,
) -> sarif::Result {
    let Verdict::Bug {
        inputs,
        failure,
        kind,
        trace,
        ..
    } = verdict
    else {
        unreachable!("internal error: a result for a verdict that is not a bug")
    };
    let rule = rule_for(kind);
    let shown: Vec<String> = inputs.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let inputs_text = if shown.is_empty() {
        "no inputs".to_string()
    } else {
        format!("inputs {}", shown.join(", "))
    };
    let depth_text = match depths {
        [d] => format!("within call depth {d}"),
        _ => format!("at call depths {}", join(depths)),
    };
    let text = format!(
        "`{kind}` fails at {failure} with {inputs_text} ({depth_text}; confirmed by concrete replay)"
    );
    let (line, column) = line_col(failure);
    let fingerprints = BTreeMap::from([(
        FINGERPRINT_KEY.to_string(),
        fingerprint(&[file, failure, kind]),
    )]);
    let properties = sarif::PropertyBag::builder()
        .additional_properties(BTreeMap::from([
            ("depths".to_string(), json!(depths)),
            (
                "inputs".to_string(),
                json!(inputs.iter().cloned().collect::<BTreeMap<_, _>>()),
            ),
        ]))
        .build();
    sarif::Result::builder()
        .rule_id(rule)
        .rule_index(rule_index(rule))
        .level(level)
        .message(message(text))
        .locations(vec![location(file, line, column)])
        .code_flows(vec![code_flow(file, inputs_text, failure, trace)])
        .partial_fingerprints(fingerprints)
        .properties(properties)
        .build()
}

/// `Main` (level 0), each call at its call site (level: its depth), then the failure.
fn code_flow(file: &str, inputs: String, failure: &str, trace: &[TraceStep]) -> sarif::CodeFlow {
    let mut locations = vec![flow_location(
        location(file, None, None),
        format!("Main with {inputs}"),
        Some(0),
        "function",
    )];
    for step in trace {
        let (line, column) = line_col(&step.at);
        let text = format!("{}({})", step.function, step.args.join(", "));
        locations.push(flow_location(
            location(file, line, column),
            text,
            Some(i64::from(step.depth)),
            "call",
        ));
    }
    let (line, column) = line_col(failure);
    locations.push(flow_location(
        location(file, line, column),
        format!("fails at {failure}"),
        None,
        "danger",
    ));
    let thread = sarif::ThreadFlow::builder().locations(locations).build();
    sarif::CodeFlow::builder()
        .thread_flows(vec![thread])
        .message(message(format!("the calls on the way to {failure}")))
        .build()
}

fn flow_location(
    location: sarif::Location,
    text: String,
    nesting: Option<i64>,
    kind: &str,
) -> sarif::ThreadFlowLocation {
    let location = sarif::Location {
        message: Some(message(text)),
        ..location
    };
    let flow = sarif::ThreadFlowLocation::builder()
        .location(location)
        .kinds(vec![kind.to_string()]);
    match nesting {
        Some(level) => flow.nesting_level(level).build(),
        None => flow.build(),
    }
}

pub fn log(results: Vec<sarif::Result>, notification: Option<String>) -> sarif::Sarif {
    let invocation = match notification {
        None => sarif::Invocation::builder()
            .execution_successful(true)
            .build(),
        Some(text) => sarif::Invocation::builder()
            .execution_successful(false)
            .tool_execution_notifications(vec![
                sarif::Notification::builder()
                    .message(message(text))
                    .level(json!("warning"))
                    .build(),
            ])
            .build(),
    };
    let run = sarif::Run::builder()
        .tool(tool())
        .results(results)
        .invocations(vec![invocation])
        .column_kind(json!("unicodeCodePoints"))
        .build();
    sarif::Sarif::builder()
        .schema(SCHEMA_URI)
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build()
}

fn tool() -> sarif::Tool {
    let rules: Vec<sarif::ReportingDescriptor> = RULES
        .iter()
        .map(|(id, _, text)| {
            sarif::ReportingDescriptor::builder()
                .id(*id)
                .short_description(
                    sarif::MultiformatMessageString::builder()
                        .text(*text)
                        .build(),
                )
                .build()
        })
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("horef-si")
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .rules(rules)
        .build();
    sarif::Tool::builder().driver(driver).build()
}

/// The rule of a failure kind (`assert`, `fail`, `hd []`, `tl []`).
fn rule_for(kind: &str) -> &'static str {
    RULES
        .iter()
        .find(|(_, k, _)| *k == kind)
        .map_or(RULES[0].0, |(id, _, _)| id)
}

pub fn rule_index(rule: &str) -> i64 {
    RULES.iter().position(|(id, _, _)| *id == rule).unwrap_or(0) as i64
}

pub fn message(text: String) -> sarif::Message {
    sarif::Message::builder().text(text).build()
}

/// A location in `file`, at `line:column` when known.
pub fn location(file: &str, line: Option<i64>, column: Option<i64>) -> sarif::Location {
    let artifact = sarif::ArtifactLocation::builder().uri(uri(file)).build();
    let physical = match line {
        Some(line) => {
            let region = match column {
                Some(c) => sarif::Region::builder()
                    .start_line(line)
                    .start_column(c)
                    .build(),
                None => sarif::Region::builder().start_line(line).build(),
            };
            sarif::PhysicalLocation::builder()
                .artifact_location(artifact)
                .region(region)
                .build()
        }
        None => sarif::PhysicalLocation::builder()
            .artifact_location(artifact)
            .build(),
    };
    sarif::Location::builder()
        .physical_location(physical)
        .build()
}

/// A relative URI reference for a path (`/`-separated, no leading `./`, characters that
/// may not appear in a URI percent-encoded); `file://` for an absolute path.
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// `L:C` as numbers (`None` for an IR failure named by its procedure).
fn line_col(at: &str) -> (Option<i64>, Option<i64>) {
    let Some((line, col)) = at.split_once(':') else {
        return (None, None);
    };
    match (line.parse().ok(), col.parse().ok()) {
        (Some(l), Some(c)) => (Some(l), Some(c)),
        _ => (None, None),
    }
}

pub fn fingerprint(parts: &[&str]) -> String {
    super::witness::sha256_hex(parts.join("\u{0}").as_bytes())
}

fn join(depths: &[u32]) -> String {
    depths
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
