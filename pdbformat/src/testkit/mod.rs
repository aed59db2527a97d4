//! Test helpers shared by the workspace's tests (cargo feature `testkit`, off by default; the
//! other crates enable it in their dev-dependencies): a deterministic random source and a
//! brute-force oracle of exact abstract distances.
//!
//! Nothing here is meant for production code: the oracle is slow on purpose (explicit states
//! in a hash map) so that it shares no code and no cleverness with what it checks.

mod oracle;
mod xorshift;

pub use oracle::AbstractDistances;
pub use xorshift::XorShift;
