//! The Boogie front end on arbitrary UTF-8 text: lexing, parsing and the typed translation
//! to the IR either give an IR program, which the IR's own checker accepts, or a diagnostic
//! that renders. Nothing panics or hangs.
#![no_main]

use horef_si::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.bpl", text.to_string());
    match horef_si::frontend::boogie::translate(&file, None) {
        Ok(program) => {
            // The translation promises a well-formed IR program.
            if let Err(e) = boogie_like::verify(&program) {
                panic!("the Boogie translation produced IR its checker rejects: {e:?}");
            }
        }
        Err(d) => {
            let _ = horef_si::diagnostics::render_all(&[d], &file);
        }
    }
});
