//! The `horef-si` binary: a thin shell around [`horef_si::cli`].
//!
//! SIGPIPE keeps Rust's disposition (ignored): a write to a closed pipe is an error we
//! handle — on stdout the CLI drops the output quietly (`horef-si verify ... | head`), on
//! a solver's stdin it is a crashed or killed solver, reported as such.
//!
//! SIGINT, SIGTERM and SIGHUP remove the temporary files and end the process by the signal;
//! its solver processes end with it ([`horef_si::solver::children`]).

fn main() {
    // Before any thread starts: SIGINT/SIGTERM/SIGHUP remove our temporary files and end the
    // process, whose solver processes the kernel then kills.
    horef_si::solver::children::clean_up_on_signals();
    let code = horef_si::cli::main_with_args(std::env::args_os());
    std::process::exit(code.code() as i32);
}
