//! The `horef-si` binary: a thin shell around [`horef_si::cli`].

fn main() {
    // Like other Unix tools, end quietly when the reader of our output goes away
    // (`horef-si verify ... | head`) instead of panicking on a broken pipe.
    // SAFETY: resetting a signal disposition to its default at start-up, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let code = horef_si::cli::main_with_args(std::env::args_os());
    std::process::exit(code.code() as i32);
}
