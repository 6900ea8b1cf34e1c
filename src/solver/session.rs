//! [`Session`]: one solver process for a whole run, used incrementally.

use super::SolverKind;
use super::config::SolverConfig;
use super::error::SolverError;
use super::model::{Decoder, ModelValue};
use super::process::{SolverProcess, quote};
use super::reply::Sx;
use super::rescue::{RESCUE_AFTER, Register, Rescue};
use super::terms::{DatatypeDecl, Sort, symbol_text, unquoted};
use easy_smt::{Context, ContextBuilder, SExpr};
use num_bigint::BigInt;
use num_traits::Signed;
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fmt;
use std::time::{Duration, Instant};

/// Commands other than checks (declarations, model queries) may still run this long after
/// the deadline, so that a model found just in time can be read. It is also how long a
/// check may overrun the deadline before the watchdog kills the solver.
pub const DEADLINE_GRACE: Duration = Duration::from_secs(1);

/// How long each of two racing solvers is polled in turn ([`Session::race`]).
const RACE_POLL: Duration = Duration::from_millis(10);

/// The answer to a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat,
    Unsat,
    /// The solver gave up for a reason other than the deadline (which is
    /// [`SolverError::Timeout`]), e.g. `incomplete` on nonlinear arithmetic.
    Unknown {
        reason: String,
    },
}

/// One command of a [`Session::batch`].
#[derive(Clone, Debug)]
pub enum BatchCommand {
    /// `(declare-const name sort)`
    Declare { name: String, sort: Sort },
    /// `(assert term)`
    Assert(SExpr),
}

/// What the session has cost so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// `check-sat-assuming` (or `check-sat`) commands sent.
    pub checks: u64,
    /// Wall time spent in checks (including reading the reason of an `unknown`).
    pub check_time: Duration,
    /// Commands sent, checks included.
    pub commands: u64,
    /// Wall time spent waiting for the solver, over all commands.
    pub solver_time: Duration,
}

/// A running solver and the terms built for it. See the module docs for the guarantees.
pub struct Session {
    process: SolverProcess,
    terms: Context,
    deadline: Option<Instant>,
    /// Declared constructors and their numbers of fields, for reading model values.
    ctors: HashMap<String, usize>,
    asserted: HashSet<SExpr>,
    /// For each open `push` scope, the terms first asserted in it (forgotten on `pop`).
    scopes: Vec<Vec<SExpr>>,
    /// Commands of [`Session::batch`] sent but not yet acknowledged, in order.
    unacked: Vec<String>,
    stats: SolverStats,
    clock: super::SolverClock,
    /// Whether z3's weak array theory is on ([`Session::use_weak_arrays`]).
    weak_arrays: bool,
    /// A second solver for checks that take long ([`Session::enable_rescue`]).
    rescue: Option<Rescue>,
    /// The solver program the session started (a rescue starts the same).
    program: std::ffi::OsString,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("kind", &self.kind())
            .field("pid", &self.pid())
            .field("deadline", &self.deadline)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// # Starting
impl Session {
    /// Starts the configured solver (found on PATH) and sets it up: success replies on,
    /// model production on, logic `ALL`.
    pub fn start(config: &SolverConfig) -> Result<Session, SolverError> {
        Session::start_program(config, super::locate::program(config.kind.program()))
    }

    /// Like [`Session::start`], with an explicit program (a path or a name on PATH) that
    /// speaks the dialect of `config.kind`.
    pub fn start_program(
        config: &SolverConfig,
        program: impl AsRef<OsStr>,
    ) -> Result<Session, SolverError> {
        if config.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(SolverError::Timeout);
        }
        let dump = config.dump.as_deref();
        let spawning = Instant::now();
        let process = SolverProcess::spawn(config.kind, program.as_ref(), dump, config.reply_wait);
        config.clock.add(spawning.elapsed());
        let process = process?;
        let terms = ContextBuilder::new()
            .build()
            .map_err(|e| SolverError::io("creating the term store", e))?;
        let mut session = Session {
            process,
            terms,
            deadline: config.deadline,
            ctors: HashMap::new(),
            asserted: HashSet::new(),
            scopes: Vec::new(),
            unacked: Vec::new(),
            stats: SolverStats::default(),
            clock: config.clock.clone(),
            weak_arrays: false,
            rescue: None,
            program: program.as_ref().to_os_string(),
        };
        session.ack("(set-option :print-success true)")?;
        session.ack("(set-option :produce-models true)")?;
        for option in config.kind.tuning() {
            session.ack(option)?;
        }
        session.ack("(set-logic ALL)")?;
        Ok(session)
    }

    pub fn kind(&self) -> SolverKind {
        self.process.kind()
    }

    /// From now on, a check that has no answer after [`RESCUE_AFTER`] is raced against a
    /// second solver in the other tuning, started with every command sent so far
    /// ([`super::rescue`]); `register` is given the pid of each such solver. Call it right
    /// after starting the session, before anything is declared. Nothing changes for a
    /// solver without a rescue tuning, or when the dialogue is dumped (the dump must be
    /// one solver's dialogue, `z3 FILE` replaying it).
    pub fn enable_rescue(&mut self, config: &SolverConfig, register: Register) {
        if config.dump.is_some() {
            return;
        }
        let program = self.program.clone();
        self.rescue = Rescue::new(config.kind, program, config.reply_wait, register);
    }

    /// The solver's process id (for diagnostics and tests).
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub fn stats(&self) -> &SolverStats {
        &self.stats
    }
}

/// # Building terms
///
/// Terms are easy-smt [`SExpr`]s: cheap hash-consed handles into this session's term store,
/// which lives (and grows) as long as the session. [`Session::terms`] gives the whole
/// easy-smt builder API (`and`, `plus`, `ite`, `eq`, ...). Do not pass its variadic helpers
/// (`and_many`, ...) an empty list: they panic; [`Session::and_all`] and
/// [`Session::or_all`] do not.
impl Session {
    /// easy-smt's term builder for this session.
    pub fn terms(&self) -> &Context {
        &self.terms
    }

    pub fn sort(&self, sort: &Sort) -> SExpr {
        self.terms.atom(sort.text())
    }

    /// A declared constant (or any declared name) by name.
    pub fn constant(&self, name: &str) -> SExpr {
        self.terms.atom(symbol_text(name))
    }

    /// An integer literal; negative ones are `(- n)`.
    pub fn int(&self, value: impl Into<BigInt>) -> SExpr {
        let value = value.into();
        let digits = self.terms.atom(value.abs().to_string());
        if value.is_negative() {
            self.terms.negate(digits)
        } else {
            digits
        }
    }

    pub fn bool(&self, value: bool) -> SExpr {
        if value {
            self.terms.true_()
        } else {
            self.terms.false_()
        }
    }

    /// `C` or `(C a1 ... an)`.
    pub fn ctor(&self, name: &str, args: &[SExpr]) -> SExpr {
        let ctor = self.constant(name);
        if args.is_empty() {
            return ctor;
        }
        self.terms.list([&[ctor], args].concat())
    }

    /// The tester `((_ is C) term)`.
    pub fn is_ctor(&self, name: &str, term: SExpr) -> SExpr {
        let t = &self.terms;
        let tester = t.list(vec![t.atom("_"), t.atom("is"), self.constant(name)]);
        t.list(vec![tester, term])
    }

    /// The selector application `(selector term)`.
    pub fn field(&self, selector: &str, term: SExpr) -> SExpr {
        self.terms.list(vec![self.constant(selector), term])
    }

    /// The conjunction; `true` when empty.
    pub fn and_all(&self, terms: impl IntoIterator<Item = SExpr>) -> SExpr {
        let terms: Vec<SExpr> = terms.into_iter().collect();
        match terms.len() {
            0 => self.terms.true_(),
            _ => self.terms.and_many(terms),
        }
    }

    /// The disjunction; `false` when empty.
    pub fn or_all(&self, terms: impl IntoIterator<Item = SExpr>) -> SExpr {
        let terms: Vec<SExpr> = terms.into_iter().collect();
        match terms.len() {
            0 => self.terms.false_(),
            _ => self.terms.or_many(terms),
        }
    }

    /// The SMT-LIB text of a term.
    pub fn display(&self, term: SExpr) -> String {
        self.terms.display(term).to_string()
    }

    fn join(&self, terms: &[SExpr]) -> String {
        let texts: Vec<String> = terms.iter().map(|t| self.display(*t)).collect();
        texts.join(" ")
    }
}

/// # Declaring and asserting
impl Session {
    /// `(declare-const name sort)`; returns the constant.
    pub fn declare_const(&mut self, name: &str, sort: &Sort) -> Result<SExpr, SolverError> {
        let symbol = symbol_text(name);
        self.ack(&format!("(declare-const {symbol} {})", sort.text()))?;
        Ok(self.terms.atom(symbol))
    }

    /// `(define-fun name () sort value)`; returns the constant.
    pub fn define_const(
        &mut self,
        name: &str,
        sort: &Sort,
        value: SExpr,
    ) -> Result<SExpr, SolverError> {
        let symbol = symbol_text(name);
        let value_text = self.display(value);
        self.ack(&format!(
            "(define-fun {symbol} () {} {value_text})",
            sort.text()
        ))?;
        Ok(self.terms.atom(symbol))
    }

    /// Declares a group of datatypes that may refer to each other (and to datatypes
    /// declared before) in one `declare-datatypes` command.
    pub fn declare_datatypes(&mut self, decls: &[DatatypeDecl]) -> Result<(), SolverError> {
        for command in super::terms::declaration_commands(decls) {
            self.ack(&command)?;
        }
        for ctor in decls.iter().flat_map(|d| &d.ctors) {
            let name = unquoted(&symbol_text(&ctor.name)).to_string();
            self.ctors.insert(name, ctor.fields.len());
        }
        Ok(())
    }

    /// Declares `(name, sort)` constants and asserts terms, in the order given, in one
    /// write. The replies are not awaited: the solver parses while the caller builds the
    /// next batch, and every command is acknowledged and checked before the next command
    /// that has a reply of its own (a rejected one is then [`SolverError::Rejected`],
    /// naming it). Terms already asserted in this session are not sent again.
    pub fn batch(&mut self, commands: &[BatchCommand]) -> Result<(), SolverError> {
        let mut texts = Vec::with_capacity(commands.len());
        for command in commands {
            match command {
                BatchCommand::Declare { name, sort } => texts.push(format!(
                    "(declare-const {} {})",
                    symbol_text(name),
                    sort.text()
                )),
                BatchCommand::Assert(term) => {
                    if self.remember(*term) {
                        texts.push(format!("(assert {})", self.display(*term)));
                    }
                }
            }
        }
        if texts.is_empty() {
            return Ok(());
        }
        let limit = self.deadline.map(|d| d + DEADLINE_GRACE);
        if limit.is_some_and(|l| Instant::now() >= l) {
            return Err(SolverError::Timeout);
        }
        let started = Instant::now();
        let sent = self.process.send_many(&texts, limit);
        self.stats.commands += texts.len() as u64;
        self.charge(started);
        sent?;
        if let Some(rescue) = &mut self.rescue {
            rescue.record(&texts);
        }
        self.unacked.extend(texts);
        Ok(())
    }

    /// Reads and checks the replies to the commands [`Session::batch`] sent.
    fn settle(&mut self, limit: Option<Instant>) -> Result<(), SolverError> {
        if self.unacked.is_empty() {
            return Ok(());
        }
        let commands = std::mem::take(&mut self.unacked);
        let started = Instant::now();
        let replies = self.process.receive_many(commands.len(), limit);
        self.charge(started);
        for (reply, command) in replies?.into_iter().zip(&commands) {
            if let Some(message) = reply.error_message() {
                return Err(SolverError::Rejected {
                    command: quote(command),
                    message: message.to_string(),
                });
            }
            if !reply.is_atom("success") {
                return Err(self.abandon(reply));
            }
        }
        Ok(())
    }

    /// Records `term` as asserted (in the innermost scope); false if it already was.
    fn remember(&mut self, term: SExpr) -> bool {
        let new = self.asserted.insert(term);
        if new && let Some(scope) = self.scopes.last_mut() {
            scope.push(term);
        }
        new
    }

    /// `(push 1)`: a scope whose declarations and assertions `pop` removes.
    pub fn push(&mut self) -> Result<(), SolverError> {
        self.ack("(push 1)")?;
        self.scopes.push(Vec::new());
        Ok(())
    }

    /// `(pop 1)`: forgets everything declared and asserted since the matching `push`.
    pub fn pop(&mut self) -> Result<(), SolverError> {
        self.ack("(pop 1)")?;
        for term in self.scopes.pop().unwrap_or_default() {
            self.asserted.remove(&term);
        }
        Ok(())
    }

    /// `(assert term)`. A term already asserted in this session is not sent again.
    pub fn assert(&mut self, term: SExpr) -> Result<(), SolverError> {
        if self.asserted.contains(&term) {
            return Ok(());
        }
        self.ack(&format!("(assert {})", self.display(term)))?;
        self.remember(term);
        Ok(())
    }
}

/// # Checking and reading models
impl Session {
    /// `(check-sat-assuming (l1 ... ln))` over literals (Boolean constants or their
    /// negations); `(check-sat)` when there are none. The solver is first told the time
    /// left until the deadline.
    ///
    /// A check that cannot finish by the deadline is `Err(SolverError::Timeout)` — never
    /// `Ok(Unknown)`: refused when the deadline has passed, the solver's own timeout when it
    /// gives up, the watchdog's kill when it overruns by [`DEADLINE_GRACE`]. After a kill the
    /// session is dead; after the solver's own timeout it still works, but every later check
    /// is refused with `Timeout` since the deadline has passed.
    pub fn check_assuming(&mut self, assumptions: &[SExpr]) -> Result<SatResult, SolverError> {
        self.limit_next_check()?;
        let command = self.check_command(assumptions);
        self.check(&command, Session::unknown)
    }

    /// `(check-sat-assuming (l1 ... ln))`, or `(check-sat)` without literals: cvc5 1.0
    /// refuses an empty `(check-sat-assuming ())`, and `(check-sat)` means the same.
    fn check_command(&self, assumptions: &[SExpr]) -> String {
        match assumptions {
            [] => "(check-sat)".to_string(),
            _ => format!("(check-sat-assuming ({}))", self.join(assumptions)),
        }
    }

    /// Turns on z3's weak array theory (`smt.array.weak`) for the checks to come: it
    /// instantiates the read-over-write axioms lazily and answers `unknown` where the full
    /// theory would answer `sat`, ten times faster on a SMACK heap (a round of
    /// `test/regression/smack/a.bpl` of CORRAL's tests: 0.3 s instead of 3 s). Its `unsat`
    /// is as sound as any (it only leaves axioms out). For a search whose `unknown` is a
    /// candidate anyway (a program with quantifiers); [`Session::check_with_model_search`]
    /// decides with the full theory. Other solvers: nothing changes.
    pub fn use_weak_arrays(&mut self) -> Result<(), SolverError> {
        if self.kind() == SolverKind::Z3 && !self.weak_arrays {
            self.ack("(set-option :smt.array.weak true)")?;
            self.weak_arrays = true;
        }
        Ok(())
    }

    /// After a check answered `unknown` on a query with quantifiers: the same check with
    /// the full array theory, then, if that is `unknown` too, with z3's model-based
    /// quantifier instantiation (`smt.mbqi`, off in every other check,
    /// `SolverKind::tuning`), each for at most `wait` and never past the deadline. Its
    /// `sat` has a model that satisfies the quantifiers; when both are `unknown`, the
    /// first is asked again so the model at hand is that of the full theory without
    /// model-based instantiation (a candidate). `unknown` (a time limit included) is
    /// `Ok(Unknown)`, never `Err(Timeout)`; the session's options are as they were after.
    /// Other solvers: `Ok(Unknown)` without asking.
    pub fn check_with_model_search(
        &mut self,
        assumptions: &[SExpr],
        wait: Duration,
    ) -> Result<SatResult, SolverError> {
        if self.kind() != SolverKind::Z3 {
            return Ok(SatResult::Unknown {
                reason: "no model search".to_string(),
            });
        }
        if self.weak_arrays {
            self.ack("(set-option :smt.array.weak false)")?;
        }
        let mut result = self.check_limited(assumptions, wait)?;
        if matches!(result, SatResult::Unknown { .. }) {
            self.ack("(set-option :smt.mbqi true)")?;
            result = self.check_limited(assumptions, wait)?;
            self.ack("(set-option :smt.mbqi false)")?;
            if matches!(result, SatResult::Unknown { .. }) {
                self.check_limited(assumptions, wait)?;
            }
        }
        if self.weak_arrays {
            self.ack("(set-option :smt.array.weak true)")?;
        }
        // Without a deadline the other checks set no time limit: lift this one's.
        if self.deadline.is_none() {
            self.ack(&format!("(set-option :timeout {})", u32::MAX))?;
        }
        Ok(result)
    }

    /// One `(check-sat-assuming …)` for at most `wait` (and never past the deadline); its
    /// `unknown`, whatever the reason, is `Ok(Unknown)`.
    fn check_limited(
        &mut self,
        assumptions: &[SExpr],
        wait: Duration,
    ) -> Result<SatResult, SolverError> {
        let left = self.deadline.map_or(wait, |d| {
            d.saturating_duration_since(Instant::now()).min(wait)
        });
        if left.is_zero() {
            return Ok(SatResult::Unknown {
                reason: "no time left".to_string(),
            });
        }
        let ms = left.as_millis().clamp(1, u128::from(u32::MAX - 1));
        self.ack(&format!("(set-option :timeout {ms})"))?;
        let command = self.check_command(assumptions);
        self.check(&command, |_| {
            Ok(SatResult::Unknown {
                reason: "unknown".to_string(),
            })
        })
    }

    /// Sends a check `command` (counted and timed in the stats); `unknown` reads the
    /// solver's `unknown`.
    fn check(
        &mut self,
        command: &str,
        unknown: fn(&mut Session) -> Result<SatResult, SolverError>,
    ) -> Result<SatResult, SolverError> {
        let started = Instant::now();
        let result = self
            .exchange_check(command)
            .and_then(|reply| match reply.atom() {
                Some("sat") => Ok(SatResult::Sat),
                Some("unsat") => Ok(SatResult::Unsat),
                Some("unknown") => unknown(self),
                _ => Err(self.abandon(reply)),
            });
        self.stats.checks += 1;
        self.stats.check_time += started.elapsed();
        result
    }

    /// Sets the solver's own time limit to the time left (ms); `Timeout` if none is left.
    fn limit_next_check(&mut self) -> Result<(), SolverError> {
        let Some(deadline) = self.deadline else {
            return Ok(());
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(SolverError::Timeout);
        }
        let ms = left.as_millis().clamp(1, u128::from(u32::MAX - 1));
        let option = self.kind().timeout_option();
        self.ack(&format!("(set-option {option} {ms})"))
    }

    /// After `unknown`: the solver's reason, or `Timeout` when the reason is the deadline.
    fn unknown(&mut self) -> Result<SatResult, SolverError> {
        let reply = self.exchange("(get-info :reason-unknown)")?;
        let reason = match reply.list() {
            Some([key, Sx::Str(reason)]) if key.is_atom(":reason-unknown") => reason.clone(),
            Some([key, reason]) if key.is_atom(":reason-unknown") => reason.to_string(),
            _ => return Err(self.abandon(reply)),
        };
        let past_deadline = self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.deadline.is_some() && (past_deadline || is_timeout_reason(&reason)) {
            // The solver's clock may run out a little before ours: from now on the deadline
            // has passed either way, so every later check is refused.
            self.deadline = self.deadline.map(|d| d.min(Instant::now()));
            return Err(SolverError::Timeout);
        }
        Ok(SatResult::Unknown { reason })
    }

    /// The model's values of `terms`, after a check answered `Sat`.
    pub fn get_values(&mut self, terms: &[SExpr]) -> Result<Vec<ModelValue>, SolverError> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let reply = self.exchange(&format!("(get-value ({}))", self.join(terms)))?;
        let bad = |sx: &Sx| SolverError::BadReply {
            reply: sx.to_string(),
        };
        let pairs = match reply.list() {
            Some(pairs) if pairs.len() == terms.len() => pairs,
            _ => return Err(bad(&reply)),
        };
        let mut decoder = Decoder::new(&self.ctors);
        let decode = |pair: &Sx| match pair.list() {
            Some([_, value]) => decoder.decode(value).ok_or_else(|| bad(pair)),
            _ => Err(bad(pair)),
        };
        pairs.iter().map(decode).collect()
    }
}

/// # The dialogue
impl Session {
    /// One command, one reply, within the deadline and its grace; `(error ...)` replies
    /// become [`SolverError::Rejected`].
    fn exchange(&mut self, command: &str) -> Result<Sx, SolverError> {
        self.exchange_racing(command, false)
    }

    /// [`Session::exchange`] for a check, raced against a rescue once it takes long
    /// ([`Session::enable_rescue`]).
    fn exchange_check(&mut self, command: &str) -> Result<Sx, SolverError> {
        let racing = self.rescue.as_ref().is_some_and(Rescue::ready);
        self.exchange_racing(command, racing)
    }

    fn exchange_racing(&mut self, command: &str, racing: bool) -> Result<Sx, SolverError> {
        let limit = self.deadline.map(|d| d + DEADLINE_GRACE);
        if limit.is_some_and(|l| Instant::now() >= l) {
            return Err(SolverError::Timeout);
        }
        self.settle(limit)?;
        let started = Instant::now();
        let reply = match racing {
            true => self.race(command, limit),
            false => self.process.exchange(command, limit),
        };
        self.stats.commands += 1;
        self.charge(started);
        let reply = reply?;
        match reply.error_message() {
            Some(message) => Err(SolverError::Rejected {
                command: quote(command),
                message,
            }),
            None => Ok(reply),
        }
    }

    /// Sends the check `command`; if it has no answer after [`RESCUE_AFTER`], starts the
    /// rescue and takes the first answer of the two. The session goes on with the process
    /// that answered; the other is dropped (killed and reaped).
    fn race(&mut self, command: &str, limit: Option<Instant>) -> Result<Sx, SolverError> {
        self.process.send_for_poll(command, limit)?;
        if let Some(reply) = self.process.poll_reply(RESCUE_AFTER)? {
            return Ok(reply);
        }
        let Some(rescue) = &mut self.rescue else {
            return self.await_reply();
        };
        let mut second = match rescue.start(command, limit) {
            Ok(second) => second,
            Err(_) => {
                rescue.give_up();
                return self.await_reply();
            }
        };
        loop {
            if let Some(reply) = self.process.poll_reply(RACE_POLL)? {
                return Ok(reply);
            }
            match second.poll_reply(RACE_POLL) {
                Ok(Some(reply)) => {
                    std::mem::swap(&mut self.process, &mut second);
                    if let Some(rescue) = &mut self.rescue {
                        rescue.won();
                    }
                    return Ok(reply);
                }
                Ok(None) => {}
                Err(_) => {
                    if let Some(rescue) = &mut self.rescue {
                        rescue.give_up();
                    }
                    return self.await_reply();
                }
            }
        }
    }

    /// The reply to the command sent last, however long it takes (within its bound).
    fn await_reply(&mut self) -> Result<Sx, SolverError> {
        loop {
            if let Some(reply) = self.process.poll_reply(Duration::from_secs(1))? {
                return Ok(reply);
            }
        }
    }

    /// Counts the time since `started` as solver time, here and on the run's clock.
    fn charge(&mut self, started: Instant) {
        let spent = started.elapsed();
        self.stats.solver_time += spent;
        self.clock.add(spent);
    }

    /// A command whose only good reply is `success`.
    fn ack(&mut self, command: &str) -> Result<(), SolverError> {
        let reply = self.exchange(command)?;
        if reply.is_atom("success") {
            if let Some(rescue) = &mut self.rescue {
                rescue.record([command]);
            }
            return Ok(());
        }
        Err(self.abandon(reply))
    }

    /// An unexpected reply: we no longer know where the dialogue stands, so the solver is
    /// killed and the session is over.
    fn abandon(&mut self, reply: Sx) -> SolverError {
        let reply = reply.to_string();
        self.process.abandon(&format!("unexpected reply `{reply}`"));
        SolverError::BadReply { reply }
    }
}

impl Drop for Session {
    /// Stops the solver (as dropping its process would), on the run's clock.
    fn drop(&mut self) {
        let stopping = Instant::now();
        self.process.stop();
        self.clock.add(stopping.elapsed());
    }
}

fn is_timeout_reason(reason: &str) -> bool {
    ["timeout", "canceled", "cancelled"]
        .iter()
        .any(|r| reason.contains(r))
}
