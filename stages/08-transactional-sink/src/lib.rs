//! Stage 08 · transactional sink: two-phase commit turns exactly-once state into
//! exactly-once output (08-R22).
//!
//! **Law (visibility).** A record becomes visible only when the checkpoint that
//! pre-committed it is notified complete (08-R23).
//!
//! **Law (recovery).** At a crash, what is visible is exactly the records of the notified
//! checkpoints (08-R9) (08-R23); the open transaction and the prepared but unnotified ones
//! are aborted (08-R14) (08-R13), and a fresh sink receives exactly the records from the
//! last notified checkpoint's offset on (08-R15). Every record is output exactly once,
//! whatever the crash point and lag (08-R22).
//!
//! **Law (idempotent commit).** Committing an id again, an aborted id or an unknown id
//! changes nothing (08-R3) (08-R24).
#![doc = include_str!("../README.md")]

mod runner;
mod sink;
mod two_phase;

pub use runner::{run_exactly_once_sink, run_exactly_once_sink_with};
pub use sink::TransactionalSink;
/// The number of a checkpoint (the first one is 1), as your stages 06 and 07 define it:
/// a transaction is pre-committed under the id of the checkpoint whose barrier sealed it.
pub use stage07::CheckpointId;
pub use two_phase::TwoPhaseCommitSink;

#[cfg(doctest)]
#[doc = include_str!("../../../hints/08.md")]
struct HintSnippets;
