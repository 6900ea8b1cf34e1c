//! Confirming a bug before it is reported: the solver's inputs replayed in the concrete
//! interpreter of the program's own language ([`witness`]), nondeterministic choices below
//! an IR entry searched for ([`replay_search`]), quantifiers met on the way decided on the
//! run's values ([`quantifiers`]). Guarantees: a bug is confirmed only when the replay
//! fails at the reported place.

pub mod quantifiers;
pub mod replay_search;
pub mod witness;
