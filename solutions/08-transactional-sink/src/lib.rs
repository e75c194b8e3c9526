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
//! crash, and the replay.
//!
//! The [`committer`] module goes further, for the reader: the framework a real engine
//! uses so that no connector hand-rolls this protocol (connector verbs, a base that owns
//! the two-phase choreography, durable handle bookkeeping, recovery and rescale
//! succession), and [`connectors`] holds its in-memory adopters, one per delivery shape.

mod attempt;
mod checkpoint;
pub mod committer;
pub mod connectors;
mod notifications;
mod runner;
mod sink;
mod transaction;
mod two_phase;

pub use checkpoint::CheckpointId;
pub use runner::{run_exactly_once_sink, run_exactly_once_sink_with};
pub use sink::TransactionalSink;
pub use two_phase::TwoPhaseCommitSink;
