//! The two-phase-commit contract between the job and an external system.

use crate::CheckpointId;

/// A sink whose writes become visible in two phases, tied to checkpoints.
///
/// Phase one, at the barrier of checkpoint `c`: [`pre_commit(c)`](Self::pre_commit)
/// makes everything written since the previous barrier durable but invisible, under the
/// name `c` (08-R2) (08-R8). Phase two, when `c` is notified complete:
/// [`commit(c)`](Self::commit) publishes it (08-R3) (08-R9). A transaction that will never
/// be notified is [`abort`](Self::abort)ed (08-R13). When the phases happen is the job's
/// part; what they do is the sink's, as its methods below describe.
pub trait TwoPhaseCommitSink<T> {
    /// Adds `record` to the open transaction; it stays invisible (08-R1).
    fn write(&mut self, record: T);

    /// Seals the open transaction as the prepared transaction `id` and opens a new,
    /// empty one (08-R2). Prepared data survives a crash but is still invisible.
    ///
    /// Ids are unique: the job never reuses one (08-R18), so a sink never sees the same id
    /// pre-committed twice.
    fn pre_commit(&mut self, id: CheckpointId);

    /// Publishes prepared transaction `id`, appending its records to
    /// [`committed`](Self::committed) (08-R3). Idempotent: an id already committed, aborted
    /// or never prepared is ignored (08-R3) (08-R24).
    fn commit(&mut self, id: CheckpointId);

    /// Discards prepared transaction `id`; an id that is not prepared is ignored (in
    /// particular, a committed transaction stays visible) (08-R4).
    fn abort(&mut self, id: CheckpointId);

    /// Discards the open transaction; prepared transactions are untouched (08-R5).
    fn abort_open(&mut self);

    /// Everything visible to a reader of the external system, in commit order (08-R6).
    fn committed(&self) -> &[T];
}
