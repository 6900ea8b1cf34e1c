//! The OCaml front end on arbitrary bytes: lexing, parsing, type inference, specialisation
//! and the translation to the core either accept the input or report diagnostics, which
//! render; an accepted program is lowered to the IR. Nothing panics or hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match horef_si::frontend::load_bytes("fuzz.ml", data) {
        Ok(checked) => {
            let lowered = horef_si::lower::lower(&checked);
            let _ = lowered.ir.procs.len();
        }
        Err(e) => {
            let _ = e.render();
        }
    }
});
