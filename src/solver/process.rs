//! The solver subprocess: commands out, one reply per command in, under a watchdog.
//!
//! Guarantees:
//! - every exchange is bounded, with or without a run deadline ([`ExchangeBound`]): a
//!   watchdog thread SIGKILLs the solver when the bound passes (a hung solver, or one that
//!   stops in the middle of a reply, cannot hang us, whether we are writing or reading);
//!   a reply longer than [`MAX_REPLY_BYTES`] ends the session too (a solver printing
//!   garbage cannot fill our memory);
//! - the child is killed and reaped when this value is dropped (also during unwinding);
//! - the dump file gets every command before it is sent and every reply line (as a `;`
//!   comment) when it arrives, flushed each time, so it is complete whenever we stop;
//! - after a failure that leaves the stream unusable (death, timeout kill, unreadable
//!   reply) the process is dead and every later exchange fails the same way, without I/O.

use super::SolverKind;
use super::error::SolverError;
use super::reply::{self, Framer, Sx};
use super::watchdog::{ExchangeBound, Watchdog, lock};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// If the watchdog's kill does not close the pipes (a grandchild holding them), the reading
/// side gives up this long after the limit.
const READ_GUARD: Duration = Duration::from_secs(2);
/// How long to wait for a dead solver's exit status and last stderr lines.
const REPORT_WAIT: Duration = Duration::from_millis(500);
/// How much of the solver's stderr we keep for crash reports.
const STDERR_TAIL: usize = 2000;
/// How much of the last command a crash report quotes.
const COMMAND_QUOTE: usize = 200;
/// The longest reply we read (a model of a large program is a few megabytes).
pub(crate) const MAX_REPLY_BYTES: usize = 256 << 20;

/// Why an exchange failed, before it becomes a [`SolverError`].
enum Failure {
    Closed,
    TimedOut,
    Malformed(String),
}

/// Why the process is dead.
#[derive(Clone, Debug)]
enum Death {
    Timeout,
    Crashed(String),
}

pub(crate) struct SolverProcess {
    kind: SolverKind,
    program: String,
    pid: u32,
    child: Arc<Mutex<Child>>,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<String>,
    framer: Framer,
    stderr: Arc<Mutex<StderrTail>>,
    watchdog: Option<Watchdog>,
    /// How long one reply may take to arrive in full.
    reply_wait: Duration,
    /// The bound of the current (or last) exchange.
    bound: Option<ExchangeBound>,
    dump: Option<Dump>,
    /// A failure to write a reply to the dump, reported when the exchange is over.
    dump_failed: Option<SolverError>,
    last_command: String,
    death: Option<Death>,
}

impl SolverProcess {
    /// Starts `program` with the flags of `kind`; every exchange will be bounded by the
    /// earlier of its limit and `reply_wait`.
    pub(crate) fn spawn(
        kind: SolverKind,
        program: &OsStr,
        dump: Option<&Path>,
        reply_wait: Duration,
    ) -> Result<SolverProcess, SolverError> {
        let program_name = program.to_string_lossy().into_owned();
        let mut command = Command::new(program);
        command
            .args(kind.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child =
            super::children::spawn(command).map_err(|e| spawn_error(kind, &program_name, e))?;
        let pipes = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let child = Arc::new(Mutex::new(child));
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            kill_and_reap(&child);
            return Err(SolverError::io(
                "starting the solver",
                io::Error::other("a pipe to the solver is missing"),
            ));
        };
        let pid = lock(&child).id();
        let mut process = SolverProcess {
            kind,
            program: program_name,
            pid,
            child: child.clone(),
            stdin: BufWriter::new(stdin),
            lines: mpsc::channel().1,
            framer: Framer::new(),
            stderr: Arc::new(Mutex::new(StderrTail::default())),
            watchdog: None,
            reply_wait,
            bound: None,
            dump: None,
            dump_failed: None,
            last_command: String::new(),
            death: None,
        };
        // From here on, dropping `process` kills and reaps the child.
        process.lines = spawn_stdout_reader(stdout).map_err(thread_error)?;
        spawn_stderr_reader(stderr, process.stderr.clone()).map_err(thread_error)?;
        process.watchdog = Some(Watchdog::start(child).map_err(thread_error)?);
        if let Some(path) = dump {
            process.dump = Some(Dump::create(path, kind, &process.program)?);
        }
        Ok(process)
    }

    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends `command` (one line of SMT-LIB) and reads exactly one reply. The solver is
    /// killed if the exchange is not over by its bound (the `limit`, if any, or the reply
    /// wait): [`SolverError::Timeout`] at the limit, [`SolverError::NoReply`] at the wait.
    pub(crate) fn exchange(
        &mut self,
        command: &str,
        limit: Option<Instant>,
    ) -> Result<Sx, SolverError> {
        self.check_alive()?;
        self.dump_line(command)?;
        self.last_command = quote(command);
        let until = self.arm(limit);
        let result = self.send(command).and_then(|()| self.receive(until));
        self.finish(result)
    }

    /// Sends every command of `commands` (one line of SMT-LIB each) in one write, without
    /// waiting for the replies: the stdout reader thread keeps them (so the pipes cannot
    /// fill up and deadlock) until [`SolverProcess::receive_many`] reads them, and the
    /// solver parses while we build the next commands.
    pub(crate) fn send_many(
        &mut self,
        commands: &[String],
        limit: Option<Instant>,
    ) -> Result<(), SolverError> {
        self.check_alive()?;
        for command in commands {
            self.dump_line(command)?;
        }
        if let Some(last) = commands.last() {
            self.last_command = quote(last);
        }
        self.arm(limit);
        let result = self.send_all(commands);
        self.disarm();
        result.map_err(|failure| self.fail(failure))
    }

    /// Reads exactly `count` replies, in order (those of commands sent by
    /// [`SolverProcess::send_many`]).
    pub(crate) fn receive_many(
        &mut self,
        count: usize,
        limit: Option<Instant>,
    ) -> Result<Vec<Sx>, SolverError> {
        self.check_alive()?;
        let until = self.arm(limit);
        let result = (0..count)
            .map(|_| self.receive(until))
            .collect::<Result<Vec<_>, _>>();
        self.finish(result)
    }

    /// Sends `command` (one line of SMT-LIB) without waiting for its reply, under the same
    /// bound as [`SolverProcess::exchange`]: [`SolverProcess::poll_reply`] reads the reply.
    pub(crate) fn send_for_poll(
        &mut self,
        command: &str,
        limit: Option<Instant>,
    ) -> Result<(), SolverError> {
        self.check_alive()?;
        self.dump_line(command)?;
        self.last_command = quote(command);
        self.arm(limit);
        self.send(command).map_err(|failure| {
            self.disarm();
            self.fail(failure)
        })
    }

    /// The reply to the command [`SolverProcess::send_for_poll`] sent, if it arrives within
    /// `wait` (`Ok(None)`: not yet, and the exchange's bound has not passed; what came of
    /// the reply so far is kept for the next poll). Past the bound the process is dead, as
    /// after [`SolverProcess::exchange`].
    pub(crate) fn poll_reply(&mut self, wait: Duration) -> Result<Option<Sx>, SolverError> {
        self.check_alive()?;
        let until = self.bound.map_or_else(Instant::now, |b| b.until);
        match self.read_reply(until, Some(Instant::now() + wait)) {
            Ok(None) => Ok(None),
            done => self.finish(done),
        }
    }

    /// Ends an exchange with `result`: the watchdog disarmed, a failure made the
    /// process's death, a failure to write the dump reported.
    fn finish<T>(&mut self, result: Result<T, Failure>) -> Result<T, SolverError> {
        self.disarm();
        let value = result.map_err(|failure| self.fail(failure))?;
        match self.dump_failed.take() {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }

    fn send_all(&mut self, commands: &[String]) -> Result<(), Failure> {
        let mut written = Ok(());
        for command in commands {
            written = written.and_then(|()| writeln!(self.stdin, "{command}"));
        }
        written
            .and_then(|()| self.stdin.flush())
            .map_err(|_| Failure::Closed)
    }

    fn check_alive(&mut self) -> Result<(), SolverError> {
        if self.death.is_none() && self.watchdog.as_ref().is_some_and(Watchdog::fired) {
            // It fired just as the last exchange ended: the solver is dead all the same.
            let error = self.bound_error();
            self.death = Some(death_of(&error));
        }
        match &self.death {
            None => Ok(()),
            Some(Death::Timeout) => Err(SolverError::Timeout),
            Some(Death::Crashed(why)) => Err(SolverError::Crashed {
                detail: format!("the solver session already ended: {why}"),
            }),
        }
    }

    fn send(&mut self, command: &str) -> Result<(), Failure> {
        let written = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
        written.map_err(|_| Failure::Closed)
    }

    fn receive(&mut self, until: Instant) -> Result<Sx, Failure> {
        loop {
            if let Some(reply) = self.read_reply(until, None)? {
                return Ok(reply);
            }
        }
    }

    /// The next whole reply, reading lines until `polled` if given (then `Ok(None)`, what
    /// came so far kept) and at most until `until` plus [`READ_GUARD`] (then `TimedOut`).
    fn read_reply(
        &mut self,
        until: Instant,
        polled: Option<Instant>,
    ) -> Result<Option<Sx>, Failure> {
        let guard = until + READ_GUARD;
        let stop = polled.map_or(guard, |polled| polled.min(guard));
        loop {
            if let Some(text) = self.framer.next_datum() {
                return reply::parse(&text)
                    .map(Some)
                    .map_err(|why| Failure::Malformed(format!("{} ({why})", text.trim())));
            }
            if self.framer.pending().len() > MAX_REPLY_BYTES {
                let why = format!("a reply longer than {MAX_REPLY_BYTES} bytes");
                return Err(Failure::Malformed(why));
            }
            match self
                .lines
                .recv_timeout(stop.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    self.dump_reply(&line);
                    self.framer.push(&line);
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < guard => return Ok(None),
                Err(RecvTimeoutError::Timeout) => return Err(Failure::TimedOut),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Closed),
            }
        }
    }

    /// Turns a failed exchange into an error; the process is dead afterwards.
    fn fail(&mut self, failure: Failure) -> SolverError {
        let timed_out = self.watchdog.as_ref().is_some_and(Watchdog::fired);
        let (death, error) = match failure {
            _ if timed_out => self.out_of_time(),
            Failure::TimedOut => self.out_of_time(),
            Failure::Closed => {
                let detail = self.crash_detail();
                (
                    Death::Crashed(detail.clone()),
                    SolverError::Crashed { detail },
                )
            }
            Failure::Malformed(reply) => {
                let why = format!("its reply could not be read: {reply}");
                (Death::Crashed(why), SolverError::BadReply { reply })
            }
        };
        kill_and_reap(&self.child);
        self.dump_note(&format!("session ended: {error}"));
        self.death = Some(death);
        error
    }

    /// The bound of the exchange passed.
    fn out_of_time(&self) -> (Death, SolverError) {
        let error = self.bound_error();
        (death_of(&error), error)
    }

    /// The error of the current exchange's bound (a timeout if there is none).
    fn bound_error(&self) -> SolverError {
        match self.bound {
            Some(bound) => bound.error(&self.last_command, self.framer.pending()),
            None => SolverError::Timeout,
        }
    }

    /// Ends a dialogue that lost its footing (an unexpected reply): the solver is killed
    /// and every later exchange fails with `why`.
    pub(crate) fn abandon(&mut self, why: &str) {
        kill_and_reap(&self.child);
        self.dump_note(&format!("session ended: {why}"));
        self.death = Some(Death::Crashed(why.to_string()));
    }

    /// What we know about a solver that closed its pipes.
    fn crash_detail(&mut self) -> String {
        let status = wait_briefly(&self.child);
        let status = match status {
            Some(status) => format!("ended ({})", describe_status(status)),
            None => "closed its output but was still running (now killed)".to_string(),
        };
        let mut detail = format!(
            "{} (pid {}) {status} after `{}`",
            self.program, self.pid, self.last_command
        );
        let tail = StderrTail::wait_and_read(&self.stderr);
        if !tail.trim().is_empty() {
            detail.push_str(&format!("; its stderr ends with: {}", tail.trim()));
        }
        detail
    }

    /// Arms the watchdog with the bound of an exchange starting now; returns its end.
    fn arm(&mut self, limit: Option<Instant>) -> Instant {
        let bound = ExchangeBound::starting_now(limit, self.reply_wait);
        self.bound = Some(bound);
        if let Some(watchdog) = &self.watchdog {
            watchdog.arm(bound.until);
        }
        bound.until
    }

    fn disarm(&self) {
        if let Some(watchdog) = &self.watchdog {
            watchdog.disarm();
        }
    }

    fn dump_line(&mut self, command: &str) -> Result<(), SolverError> {
        let Some(dump) = &mut self.dump else {
            return Ok(());
        };
        dump.line(command).map_err(|e| dump.error(e))
    }

    /// A reply line goes to the dump as a comment. A failure there must not stop us from
    /// reading the whole reply (the stream would lose its sync), so it is reported after.
    fn dump_reply(&mut self, line: &str) {
        let Some(dump) = &mut self.dump else {
            return;
        };
        if let Err(e) = dump.comment(line) {
            self.dump_failed = Some(dump.error(e));
            self.dump = None;
        }
    }

    fn dump_note(&mut self, note: &str) {
        if let Some(dump) = &mut self.dump {
            let _ = dump.comment(note);
        }
    }

    pub(crate) fn kind(&self) -> SolverKind {
        self.kind
    }
}

impl SolverProcess {
    /// Stops the watchdog, kills and reaps the solver; harmless when done before.
    pub(crate) fn stop(&mut self) {
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.stop();
        }
        kill_and_reap(&self.child);
    }
}

impl Drop for SolverProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How a process that ran out of time is dead: a deadline stays a timeout for every later
/// exchange; a reply that did not come is a crash that quotes it.
fn death_of(error: &SolverError) -> Death {
    match error {
        SolverError::Timeout => Death::Timeout,
        other => Death::Crashed(other.to_string()),
    }
}

fn spawn_error(kind: SolverKind, program: &str, e: io::Error) -> SolverError {
    if e.kind() == io::ErrorKind::NotFound {
        return SolverError::NotFound {
            kind,
            program: program.to_string(),
            hint: kind.install_hint(),
        };
    }
    SolverError::io(format!("cannot start the solver `{program}`"), e)
}

fn thread_error(e: io::Error) -> SolverError {
    SolverError::io("cannot start a solver I/O thread", e)
}

fn kill_and_reap(child: &Mutex<Child>) {
    let mut child = lock(child);
    // Killing an already exited (even reaped) child is harmless: std tracks its status.
    let _ = child.kill();
    let _ = child.wait();
}

/// The exit status, if the child exits within [`REPORT_WAIT`].
fn wait_briefly(child: &Mutex<Child>) -> Option<ExitStatus> {
    let until = Instant::now() + REPORT_WAIT;
    loop {
        if let Ok(Some(status)) = lock(child).try_wait() {
            return Some(status);
        }
        if Instant::now() >= until {
            return None;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

fn describe_status(status: ExitStatus) -> String {
    status.to_string()
}

/// A command shortened for messages.
pub(crate) fn quote(command: &str) -> String {
    match command.char_indices().nth(COMMAND_QUOTE) {
        Some((cut, _)) => format!("{}...", &command[..cut]),
        None => command.to_string(),
    }
}

/// Forwards the solver's stdout line by line; the channel closes at end of output.
fn spawn_stdout_reader(stdout: impl Read + Send + 'static) -> io::Result<Receiver<String>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("solver-stdout".into())
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                    return;
                }
            }
        })?;
    Ok(rx)
}

/// The end of the solver's stderr, for crash reports.
#[derive(Default)]
struct StderrTail {
    text: String,
    closed: bool,
}

impl StderrTail {
    fn push(&mut self, chunk: &str) {
        self.text.push_str(chunk);
        if self.text.len() > STDERR_TAIL {
            let mut cut = self.text.len() - STDERR_TAIL;
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.text.drain(..cut);
        }
    }

    /// The tail once stderr is closed, or what we have after [`REPORT_WAIT`].
    fn wait_and_read(tail: &Mutex<StderrTail>) -> String {
        let until = Instant::now() + REPORT_WAIT;
        loop {
            let guard = lock(tail);
            if guard.closed || Instant::now() >= until {
                return guard.text.clone();
            }
            drop(guard);
            thread::sleep(Duration::from_millis(10));
        }
    }
}

fn spawn_stderr_reader(
    stderr: impl Read + Send + 'static,
    tail: Arc<Mutex<StderrTail>>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name("solver-stderr".into())
        .spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                lock(&tail).push(&String::from_utf8_lossy(&buf));
                buf.clear();
            }
            lock(&tail).closed = true;
        })
}

/// The `--dump-smt` file: commands verbatim, replies and notes as `;` comments.
struct Dump {
    path: PathBuf,
    file: BufWriter<File>,
}

impl Dump {
    fn create(path: &Path, kind: SolverKind, program: &str) -> Result<Dump, SolverError> {
        let context = || format!("cannot create the SMT dump file {}", path.display());
        let file = File::create(path).map_err(|e| SolverError::io(context(), e))?;
        let mut dump = Dump {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        };
        let header = format!(
            "horef-si solver dialogue with `{program} {}`; replies are the `;` lines",
            kind.args().join(" ")
        );
        dump.comment(&header)
            .map_err(|e| SolverError::io(context(), e))?;
        Ok(dump)
    }

    fn error(&self, e: io::Error) -> SolverError {
        SolverError::io(
            format!("writing the SMT dump file {}", self.path.display()),
            e,
        )
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.file, "{text}")?;
        self.file.flush()
    }

    fn comment(&mut self, text: &str) -> io::Result<()> {
        for line in text.trim_end().lines() {
            writeln!(self.file, "; {line}")?;
        }
        self.file.flush()
    }
}
