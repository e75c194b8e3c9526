//! Stage 07 · exactly-once state: a completed checkpoint is a consistent cut (operator
//! state plus source offset) that a crashed job restores and replays from (07-R20).
//!
//! **Law.** Checkpoint `c` holds offset `c * barrier_every` and the state of exactly that
//! prefix, as bytes (07-R7). Recovery restores the latest *completed* checkpoint, never
//! one in flight (07-R20), seeks there and replays (07-R12): the state is exactly-once
//! (07-R19), the emitted output only at-least-once (07-R21).
#![doc = include_str!("../README.md")]

#[cfg(doctest)]
#[doc = include_str!("../../../hints/07.md")]
struct HintSnippets;

mod recovery;
mod store;

pub use recovery::{RecoveryOutcome, run_with_recovery, run_with_recovery_in};
pub use stage01::Offset;
pub use stage06::CheckpointId;
pub use store::{CheckpointStore, InMemoryCheckpointStore, StoredCheckpoint};
