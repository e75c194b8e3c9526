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
//! # One instance of the general choreography
//!
//! The job does not hand-roll the protocol. The [`committer`] module is the framework
//! a real engine uses so that no connector does: connectors supply verbs
//! ([`CommittingSink`](committer::CommittingSink)), a base
//! ([`CommitterOperator`](committer::CommitterOperator)) owns the two-phase
//! choreography, durable handle bookkeeping, recovery and rescale succession; and
//! [`connectors`] holds its in-memory adopters, one per delivery shape. The job runs on
//! it: every learner-level sink, [`TransactionalSink`] or any other, is adopted as a
//! shape-B connector whose committable is the prepared transaction (its checkpoint id),
//! and the job feeds the base its events.
//!
//! | the job sees | the base does | the learner-level sink is told |
//! |---|---|---|
//! | a record | `write` | `write(record)` |
//! | the barrier of checkpoint `c` | `on_barrier(c)`: prepare, persist the handle | `pre_commit(c)` |
//! | the notification of `c` | `on_checkpoint_complete(c)`: commit, erase | `commit(c)`, the oldest prepared |
//! | end of input | a last barrier, every notification, `finish` | `pre_commit`, then every `commit` |
//! | a crash, then a restart | `open` over the dead sink with the last notified checkpoint's state: `on_open`, recovery | `abort_open`, then `abort(id)` of every unnotified `id` |
//! | the replay | `open` over a fresh sink, then as above | as above |
//!
//! Recovery re-commits the restored handles, as it must in general (a crash may fall
//! between a checkpoint's completion and its commit); here each is already committed,
//! which the adopter reports as
//! [`AlreadyCommitted`](committer::CommitOutcome::AlreadyCommitted) without calling
//! the sink, so a sink sees exactly the calls of the learner-level protocol.

mod adopter;
mod attempt;
mod checkpoint;
pub mod committer;
pub mod connectors;
mod external;
mod notifications;
mod runner;
mod sink;
mod transaction;
mod two_phase;

pub use runner::{run_exactly_once_sink, run_exactly_once_sink_with};
pub use sink::TransactionalSink;
/// The number of a checkpoint (the first one is 1), as stages 06 and 07 define it: a
/// transaction is pre-committed under the id of the checkpoint whose barrier sealed it.
pub use stage07::CheckpointId;
pub use two_phase::TwoPhaseCommitSink;
