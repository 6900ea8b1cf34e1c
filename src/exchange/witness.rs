//! SV-COMP violation witnesses, format 2.0 (YAML): writing a confirmed bug as a witness and
//! reading one back.
//!
//! A witness is a YAML list with one `violation_sequence` entry: `metadata` (format
//! version, a fresh UUID, the creation time, the producer and the task: the program file with
//! its SHA-256, the specification `CHECK( init(Main()), LTL(G ! call(reach_error())) )`,
//! the data model and the language) and `content`, a list of segments of one `follow`
//! waypoint each:
//! - `assumption` at the start of `Main`'s body: the inputs (`n == 3 && m == -2`);
//! - per call of the run, `function_enter` at the call (the format allows it no
//!   constraint), then an `assumption` at the start of the callee's body with its argument
//!   values, and `function_return` at the call with `\result == v` once it returns;
//! - per fresh input (`read_int ()`, `Random.int n`: a nondeterministic function of the
//!   program), `function_return` at it with `\result == v`, all of them, in order;
//! - `target` at the failing `assert` (`fail`, `hd`, `tl`): the final segment.
//!
//! Values are written in HORef syntax (integers in decimal, `skip`, `Pair(a, b)`,
//! `1 :: 2 :: []`, a method's name, `fun@L:C`): `docs/witnesses.md`.
//!
//! Guarantees: [`write`] builds a witness only from a run of the concrete interpreter on the
//! bug's inputs that fails at the bug's place (else a [`WitnessError`]); the witness it
//! returns has every key the format requires; [`Witness::parse`] reads any witness of the
//! format (ours or another tool's) or says why it cannot.

use crate::core_lang::Checked;
use crate::core_lang::ast::{Binder, Expr, ExprKind, Lambda, LambdaId};
use crate::core_lang::inputs::main_inputs;
use crate::core_lang::interp::{self, FunctionRef, Outcome, RunConfig, TraceEvent, Value};
use crate::core_lang::visit::walk;
use crate::engine::verdict::Verdict;
use crate::span::{LineCol, Span};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The format version we write.
pub const FORMAT_VERSION: &str = "2.0";
/// SV-COMP's reachability specification, with `Main` as the entry.
pub const SPECIFICATION: &str = "CHECK( init(Main()), LTL(G ! call(reach_error())) )";
/// The most calls a witness describes (the last ones before the failure).
pub const MAX_CALLS: usize = 200;
/// The step budget of the run that builds a witness.
const FUEL: u64 = 200_000_000;

/// A witness file: a list of entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Witness {
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub entry_type: String,
    pub metadata: Metadata,
    pub content: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    pub format_version: String,
    pub uuid: String,
    pub creation_time: String,
    pub producer: Producer,
    pub task: Task,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Producer {
    pub name: String,
    pub version: String,
    /// Ours: `--max-depth K`, the bound the bug was found within.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_line: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub input_files: Vec<String>,
    /// File name to SHA-256 (lower-case hex).
    pub input_file_hashes: BTreeMap<String, String>,
    pub specification: String,
    pub data_model: String,
    pub language: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub segment: Vec<WaypointItem>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaypointItem {
    pub waypoint: Waypoint,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waypoint {
    #[serde(rename = "type")]
    pub kind: WaypointType,
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<Constraint>,
    pub location: Location,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaypointType {
    Assumption,
    Target,
    FunctionEnter,
    FunctionReturn,
    Branching,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Follow,
    Avoid,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Constraint {
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub file_name: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// Why a witness could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    #[error("only a BUG verdict has a violation witness (the verdict is {0})")]
    NotABug(String),
    #[error("internal error: the bug's inputs do not replay to its failure: {0}")]
    NoReplay(String),
    #[error("not a witness in the format 2.0: {0}")]
    Malformed(String),
    #[error("the witness has no `violation_sequence` entry")]
    NoViolation,
}

impl Witness {
    /// Reads a witness from YAML text.
    pub fn parse(text: &str) -> Result<Witness, WitnessError> {
        serde_yaml_ng::from_str(text).map_err(|e| WitnessError::Malformed(e.to_string()))
    }

    /// The YAML text. `creation_time` is quoted: a plain ISO 8601 scalar is a timestamp
    /// to YAML 1.1 readers (PyYAML, which validators use), and the format wants a string.
    pub fn to_yaml(&self) -> String {
        let text = serde_yaml_ng::to_string(self)
            .unwrap_or_else(|e| panic!("internal error: a witness does not serialise: {e}"));
        text.lines()
            .map(|line| match line.split_once("creation_time: ") {
                Some((indent, time)) if !time.starts_with('\'') => {
                    format!("{indent}creation_time: '{time}'\n")
                }
                _ => format!("{line}\n"),
            })
            .collect()
    }

    /// The first `violation_sequence` entry.
    pub fn violation(&self) -> Result<&Entry, WitnessError> {
        self.entries
            .iter()
            .find(|e| e.entry_type == "violation_sequence")
            .ok_or(WitnessError::NoViolation)
    }
}

/// The lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The witness of `verdict` (a BUG of `checked` found within `max_depth`).
pub fn write(
    checked: &Checked,
    verdict: &Verdict,
    max_depth: u32,
) -> Result<Witness, WitnessError> {
    let Verdict::Bug {
        inputs,
        failure,
        fresh,
        ..
    } = verdict
    else {
        return Err(WitnessError::NotABug(verdict.headline()));
    };
    let values = main_inputs(&checked.program.main, inputs)
        .map_err(|e| WitnessError::NoReplay(e.to_string()))?;
    let fresh = fresh
        .iter()
        .map(|(_, v)| v.parse::<num_bigint::BigInt>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| WitnessError::NoReplay(format!("a fresh input: {e}")))?;
    let config = RunConfig {
        max_depth,
        fuel: FUEL,
        trace: true,
        memory_limit_mib: None,
    };
    let run = interp::run_fed(&checked.program, &checked.info, &values, &fresh, &config);
    let target = match run.outcome {
        Outcome::Failure { span, .. } => span,
        other => return Err(WitnessError::NoReplay(format!("the run ends in {other:?}"))),
    };
    let at = checked.file.line_col(target.start as usize);
    if at.to_string() != *failure {
        return Err(WitnessError::NoReplay(format!(
            "the run fails at {at}, the bug at {failure}"
        )));
    }
    let content = Waypoints::new(checked).content(&values, &run.trace, target);
    Ok(Witness {
        entries: vec![Entry {
            entry_type: "violation_sequence".to_string(),
            metadata: metadata(checked, max_depth),
            content,
        }],
    })
}

fn metadata(checked: &Checked, max_depth: u32) -> Metadata {
    let name = checked.file.name.clone();
    let hash = sha256_hex(checked.file.text.as_bytes());
    Metadata {
        format_version: FORMAT_VERSION.to_string(),
        uuid: uuid::Uuid::new_v4().to_string(),
        creation_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        producer: Producer {
            name: "horef-si".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            configuration: Some(format!("--max-depth {max_depth}")),
            command_line: None,
        },
        task: Task {
            input_files: vec![name.clone()],
            input_file_hashes: BTreeMap::from([(name, hash)]),
            specification: SPECIFICATION.to_string(),
            // HORef integers are unbounded: no data model applies; the format requires one.
            data_model: "LP64".to_string(),
            language: "HORef".to_string(),
        },
    }
}

/// Builds the segments of one run.
struct Waypoints<'c> {
    checked: &'c Checked,
    lambdas: HashMap<LambdaId, &'c Lambda>,
}

/// A call the run is inside: its callee and the call site.
struct Frame {
    callee: String,
    site: Span,
    /// Whether the witness describes this call (one of the last [`MAX_CALLS`]).
    shown: bool,
}

impl<'c> Waypoints<'c> {
    fn new(checked: &'c Checked) -> Waypoints<'c> {
        let mut lambdas = HashMap::new();
        let mut visit = |e: &'c Expr| match &e.kind {
            ExprKind::Fun(lambda) | ExprKind::LetRec { lambda, .. } => {
                lambdas.insert(lambda.id, &**lambda);
            }
            _ => {}
        };
        let program = &checked.program;
        for decl in &program.store {
            walk(&decl.init, &mut visit);
        }
        for method in &program.methods {
            walk(&method.body, &mut visit);
        }
        walk(&program.main.body, &mut visit);
        Waypoints { checked, lambdas }
    }

    /// Inputs, the last [`MAX_CALLS`] calls with their returns, then the target.
    fn content(&self, inputs: &[Value], trace: &[TraceEvent], target: Span) -> Vec<Segment> {
        let main = &self.checked.program.main;
        let mut segments = Vec::new();
        if let Some(values) = self.equalities(&main.params, inputs) {
            segments.push(self.assumption(main.body.span, "Main", values));
        }
        let calls = trace
            .iter()
            .filter(|e| matches!(e, TraceEvent::Call { .. }))
            .count();
        let skip = calls.saturating_sub(MAX_CALLS);
        let mut stack = vec![Frame {
            callee: "Main".to_string(),
            site: main.body.span,
            shown: false,
        }];
        let mut seen = 0;
        for event in trace {
            match event {
                TraceEvent::Call {
                    callee, args, span, ..
                } => {
                    seen += 1;
                    let shown = seen > skip;
                    let caller = stack.last().map_or("Main", |f| &f.callee).to_string();
                    let name = self.checked.function_name(*callee);
                    if shown {
                        segments.extend(self.enter(*callee, &name, &caller, args, *span));
                    }
                    stack.push(Frame {
                        callee: name,
                        site: *span,
                        shown,
                    });
                }
                TraceEvent::Input { span, value, .. } => {
                    // Every fresh input, as the format gives a nondeterministic function's
                    // value: `function_return` at the call with `\result == v`.
                    let function = stack.last().map_or("Main", |f| &f.callee).to_string();
                    segments.push(follow(
                        WaypointType::FunctionReturn,
                        Some(constraint(
                            format!("\\result == {value}"),
                            "acsl_expression",
                        )),
                        self.call_location(*span, &function),
                    ));
                }
                TraceEvent::Return { value, .. } => {
                    let frame = stack.pop();
                    let caller = stack.last().map_or("Main", |f| &f.callee).to_string();
                    if let Some(frame) = frame.filter(|f| f.shown) {
                        let result = format!("\\result == {}", self.show(value));
                        let location = self.call_location(frame.site, &caller);
                        segments.push(follow(
                            WaypointType::FunctionReturn,
                            Some(constraint(result, "acsl_expression")),
                            location,
                        ));
                    }
                }
            }
        }
        let function = stack.last().map_or("Main", |f| &f.callee).to_string();
        let location = self.location(target.start, &function);
        segments.push(follow(WaypointType::Target, None, location));
        segments
    }

    /// `function_enter` at the call, then the arguments at the start of the callee's body.
    fn enter(
        &self,
        callee: FunctionRef,
        name: &str,
        caller: &str,
        args: &[Value],
        site: Span,
    ) -> Vec<Segment> {
        let location = self.call_location(site, caller);
        let mut out = vec![follow(WaypointType::FunctionEnter, None, location)];
        let (params, body) = match callee {
            FunctionRef::Method(m) => {
                let method = self.checked.program.method(m);
                (&method.params, &method.body)
            }
            FunctionRef::Lambda(l) => match self.lambdas.get(&l) {
                Some(lambda) => (&lambda.params, &lambda.body),
                None => return out,
            },
        };
        if let Some(values) = self.equalities(params, args) {
            out.push(self.assumption(body.span, name, values));
        }
        out
    }

    /// `x == 3 && y == skip` for the parameters (`None` without parameters).
    fn equalities(&self, params: &[Binder], values: &[Value]) -> Option<String> {
        let parts: Vec<String> = params
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{} == {}", p.name.name, self.show(v)))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" && "))
    }

    fn assumption(&self, at: Span, function: &str, value: String) -> Segment {
        let location = self.location(at.start, function);
        follow(
            WaypointType::Assumption,
            Some(constraint(value, "c_expression")),
            location,
        )
    }

    fn show(&self, value: &Value) -> String {
        value
            .display(&self.checked.program, &self.checked.names)
            .to_string()
    }

    /// A call's location: its last character (the `)` of `f (a, b)`), as the format
    /// places `function_enter` and `function_return` after the arguments.
    fn call_location(&self, site: Span, function: &str) -> Location {
        self.location(site.end.saturating_sub(1).max(site.start), function)
    }

    fn location(&self, offset: u32, function: &str) -> Location {
        let LineCol { line, col } = self.checked.file.line_col(offset as usize);
        Location {
            file_name: self.checked.file.name.clone(),
            line,
            column: Some(col),
            function: Some(function.to_string()),
        }
    }
}

fn constraint(value: String, format: &str) -> Constraint {
    Constraint {
        value,
        format: Some(format.to_string()),
    }
}

fn follow(kind: WaypointType, constraint: Option<Constraint>, location: Location) -> Segment {
    Segment {
        segment: vec![WaypointItem {
            waypoint: Waypoint {
                kind,
                action: Action::Follow,
                constraint,
                location,
            },
        }],
    }
}
