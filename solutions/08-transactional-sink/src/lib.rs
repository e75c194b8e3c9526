//! Stage 08 reference · transactional sink: two-phase commit turns exactly-once state
//! into exactly-once output.
//!
//! Stage 07 made the job's *state* exactly-once: after a crash it restores the last
//! completed checkpoint and replays the source from that checkpoint's offset. Whatever
//! the job had already handed to the outside world between that checkpoint and the
//! crash is handed over a second time by the replay. A sink that publishes as it goes
//! therefore duplicates output; the fix is to publish only what a completed checkpoint
//! covers.
//!
//! **Law (visibility).** A record becomes visible only when the checkpoint that
//! pre-committed it is notified complete. Records in the open transaction and in
//! prepared (pre-committed, unnotified) transactions are invisible.
//!
//! **Law (recovery).** At a crash, what is visible is exactly the records of the notified
//! checkpoints, a prefix `records[..offset]` of the input. The open transaction and every
//! prepared but unnotified one are aborted, and a fresh sink receives exactly
//! `records[offset..]`, so the output holds every record exactly once whatever the crash
//! point and whatever the commit lag.
//!
//! **Law (idempotent commit).** Committing an id a second time, an id that was aborted or
//! an id never pre-committed changes nothing: a notification may be delivered again after
//! a failure, and the external system must not publish twice.
//!
//! The pieces: [`TwoPhaseCommitSink`] is the contract a transactional sink offers;
//! [`TransactionalSink`] is an in-memory system honouring it; [`run_exactly_once_sink`]
//! is the job: it drives a sink through barriers, lagging notifications, one optional
//! crash, the aborts of what was never notified, and the replay (`runner.rs`, read it
//! top to bottom).
//!
//! The general machinery a real engine puts around this protocol (connector verbs, a
//! base that owns the choreography, durable handles in operator state, recovery and
//! rescale succession) is the `committer` crate beside this one. It adopts any
//! [`TwoPhaseCommitSink`] as a connector, and its differential test runs every schedule
//! of this stage's grader through both, demanding the same output and the same calls on
//! every sink.

mod runner;
mod sink;
mod two_phase;

pub use runner::{run_exactly_once_sink, run_exactly_once_sink_with};
pub use sink::TransactionalSink;
/// The number of a checkpoint (the first one is 1), as stages 06 and 07 define it: a
/// transaction is pre-committed under the id of the checkpoint whose barrier sealed it.
pub use stage07::CheckpointId;
pub use two_phase::TwoPhaseCommitSink;
