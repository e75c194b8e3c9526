//! Stage 06 · barriers: numbered barriers cut every input at one consistent point, and
//! alignment snapshots the state exactly at that cut.
//!
//! **Law (the cut).** The snapshot for checkpoint `c` is the fold of exactly the records
//! before `Barrier(c)` on every input. **Law (alignment).** An input that delivered
//! `Barrier(c)` is blocked (its elements are buffered) until the last input delivers it;
//! that call emits `Checkpoint(c)`, then re-feeds the buffer in arrival order.
#![doc = include_str!("../README.md")]

#[cfg(doctest)]
#[doc = include_str!("../../../hints/06.md")]
struct HintSnippets;

mod aligner;
mod element;
mod snapshots;

pub use aligner::BarrierAligner;
pub use element::{Aligned, CheckpointId, Element, inject_barriers};
pub use snapshots::aligned_snapshots;
