//! The `horef-si` binary: a thin shell around [`horef_si::cli`].

fn main() {
    let code = horef_si::cli::main_with_args(std::env::args_os());
    std::process::exit(code.code() as i32);
}
