//! Exchange formats other tools read: SV-COMP violation witnesses (format 2.0, YAML) that
//! `verify --witness` writes and `run --witness` replays, and SARIF 2.1.0 logs for
//! code-scanning dashboards (`verify`/`suite --format sarif`). `docs/exchange.md` is the
//! user's page.
//!
//! These modules sit at the output layer: they read the engine's verdicts and the front
//! end's checked program, and change neither.

pub mod replay;
pub mod sarif;
pub mod witness;
