//! The HORef front end on arbitrary bytes: parsing and type checking either accept the
//! input or report diagnostics, which render; neither panics nor hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match horef_si::frontend::load_bytes("fuzz.horef", data) {
        Ok(checked) => {
            let _ = checked.program.methods.len();
        }
        Err(e) => {
            let _ = e.render();
        }
    }
});
