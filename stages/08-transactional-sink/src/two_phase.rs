//! The two-phase-commit contract between the job and an external system.

use crate::CheckpointId;

/// A sink whose writes become visible in two phases, tied to checkpoints.
///
/// Phase one, at the barrier of checkpoint `c`: [`pre_commit(c)`](Self::pre_commit)
/// makes everything written since the previous barrier durable but invisible, under the
/// name `c`. Phase two, when `c` is notified complete: [`commit(c)`](Self::commit)
/// publishes it. A transaction that will never be notified is
/// [`abort`](Self::abort)ed. The job, not the sink, decides when each phase happens; the
/// sink only promises that the phases mean what they say.
pub trait TwoPhaseCommitSink<T> {
    /// Adds `record` to the open transaction; it stays invisible.
    fn write(&mut self, record: T);

    /// Seals the open transaction as the prepared transaction `id` and opens a new,
    /// empty one. Prepared data survives a crash but is still invisible.
    ///
    /// Ids are unique per sink: the job never pre-commits the same id twice.
    fn pre_commit(&mut self, id: CheckpointId);

    /// Publishes prepared transaction `id`, appending its records to
    /// [`committed`](Self::committed). Idempotent: an id already committed, aborted or
    /// never prepared is ignored.
    fn commit(&mut self, id: CheckpointId);

    /// Discards prepared transaction `id`; an id that is not prepared is ignored (in
    /// particular, a committed transaction stays visible).
    fn abort(&mut self, id: CheckpointId);

    /// Discards the open transaction; prepared transactions are untouched.
    fn abort_open(&mut self);

    /// Everything visible to a reader of the external system, in commit order.
    fn committed(&self) -> &[T];
}
