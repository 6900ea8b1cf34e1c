//! The IR's text format on arbitrary text: the parser accepts it or reports an error; an
//! accepted program goes through the IR verifier and prints, and the printed text parses
//! back to the same text. Nothing panics or hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = boogie_like::parse(text) else {
        return;
    };
    let _ = boogie_like::verify(&program);
    let printed = boogie_like::print(&program);
    let again = boogie_like::parse(&printed).expect("printed IR parses");
    assert_eq!(boogie_like::print(&again), printed, "printing is stable");
});
