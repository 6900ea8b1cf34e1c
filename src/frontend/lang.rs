//! Which front end reads a program: the one place that decides it, for every subcommand.
//!
//! Guarantees: [`Lang::of`] takes the language given (`--lang`) if any, else the file's
//! extension (`.ml` OCaml, `.bpl` Boogie, `.ir` IR text), else HORef — so `-` (stdin) and
//! odd extensions are read as what the user says. [`read`] reads a program (stdin for `-`)
//! of at most [`MAX_INPUT_BYTES`]; a larger one (or an endless one, `/dev/zero`) is an
//! error naming the cap, not an exhausted memory.

use super::LoadError;
use std::io::Read;
use std::path::Path;

/// The largest program read, in bytes (64 MiB: a thousand times a large Boogie program).
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The language of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    Horef,
    Ocaml,
    Boogie,
    Ir,
}

impl Lang {
    /// The language `given`, else the one of `path`'s extension, else HORef.
    pub fn of(path: &Path, given: Option<Lang>) -> Lang {
        given.unwrap_or_else(|| match path.extension().and_then(|e| e.to_str()) {
            Some("ml") => Lang::Ocaml,
            Some("bpl") => Lang::Boogie,
            Some("ir") => Lang::Ir,
            _ => Lang::Horef,
        })
    }

    /// Whether the program becomes IR directly (Boogie, IR text) rather than a core
    /// program (HORef, OCaml).
    pub fn is_ir(self) -> bool {
        matches!(self, Lang::Boogie | Lang::Ir)
    }
}

/// The name and bytes of the program at `path`, or of stdin (named `<stdin>`) for `-`.
pub fn read(path: &Path) -> Result<(String, Vec<u8>), LoadError> {
    let (name, source): (String, Box<dyn Read>) = if path.as_os_str() == "-" {
        ("<stdin>".to_string(), Box::new(std::io::stdin()))
    } else {
        let name = path.display().to_string();
        match std::fs::File::open(path) {
            Ok(file) => (name, Box::new(file)),
            Err(error) => return Err(LoadError::Io { path: name, error }),
        }
    };
    let mut bytes = Vec::new();
    let read = source.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes);
    if let Err(error) = read {
        return Err(LoadError::Io { path: name, error });
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let error = std::io::Error::other(format!(
            "the program is larger than {} MiB, the most horef-si reads",
            MAX_INPUT_BYTES / (1024 * 1024)
        ));
        return Err(LoadError::Io { path: name, error });
    }
    Ok((name, bytes))
}
