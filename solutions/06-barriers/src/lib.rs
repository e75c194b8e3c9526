//! Stage 06 reference · barriers: numbered barriers cut every input of an operator at one
//! consistent point, and alignment snapshots the state exactly at that cut.
//!
//! **Law (the cut).** Sources inject `Barrier(c)` into their streams. The snapshot an
//! operator takes for checkpoint `c` is the fold of exactly the records that come before
//! `Barrier(c)` on every one of its inputs: none after it, none missing. Restoring that
//! snapshot and replaying each input from just after its `Barrier(c)` therefore
//! reflects every record exactly once.
//!
//! **Law (alignment).** An input that has delivered `Barrier(c)` is blocked: what it
//! delivers next belongs after the cut, so it is buffered, not processed. The moment the
//! last input delivers `Barrier(c)`, in that very call, the operator emits
//! `Checkpoint(c)` and then re-feeds the buffered elements in the order they arrived, as
//! if they were arriving now (a buffered `Barrier(c + 1)` blocks its input again).
//!
//! **Law (liveness).** Alignment never loses, duplicates or reorders the records of one
//! input, and once every input has delivered every barrier nothing stays buffered.
//!
//! This is the Chandy-Lamport snapshot specialised to a dataflow, as Flink does it: no
//! input is stopped globally, only the inputs that are already past the cut wait for the
//! others to catch up. Alignment buffers are not part of a snapshot: after a crash the
//! inputs are replayed from their cuts, which delivers the buffered elements again.

mod aligner;
mod element;
mod snapshots;

pub use aligner::BarrierAligner;
pub use element::{Aligned, CheckpointId, Element, inject_barriers};
pub use snapshots::aligned_snapshots;
