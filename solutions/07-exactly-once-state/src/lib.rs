//! Stage 07 reference · exactly-once state: a completed checkpoint is a consistent cut
//! (operator state plus source offset) that a crashed job restores and replays from.
//!
//! **Law (the cut is durable).** Checkpoint `c` is taken right after record number
//! `c * barrier_every` has been applied: it stores the source offset `c * barrier_every`
//! and the state of exactly that prefix, as bytes. Bytes, not a live object, because the
//! checkpoint must outlive the process that took it.
//!
//! **Law (only completed cuts count).** A checkpoint is saved when taken but completes
//! `commit_lag` barriers later (until then it is still being made durable). Recovery
//! restores the latest *completed* checkpoint, or empty state at offset 0 if there is
//! none, never one still in flight.
//!
//! **Law (exactly-once state).** After a crash at any point, restoring that checkpoint,
//! seeking the source to its offset and replaying to the end leaves exactly the state
//! of an uninterrupted run: every record is reflected in the state once.
//!
//! **Law (at-least-once output).** What the job emitted before the crash stays emitted.
//! The replay emits again the records between the restored offset and the crash point,
//! so the outside world sees those twice. Stage 08 fixes that with a transactional sink.

mod counter;
mod recovery;
mod runner;
mod store;

pub use recovery::{RecoveryOutcome, run_with_recovery, run_with_recovery_in};
pub use stage01::Offset;
pub use stage06::CheckpointId;
pub use store::{CheckpointStore, InMemoryCheckpointStore, StoredCheckpoint};
