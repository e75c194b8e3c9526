//! Stage 06 · barriers: numbered barriers cut every input at one consistent point, and
//! alignment snapshots the state exactly at that cut (06-R15).
//!
//! **Law (the cut).** The snapshot for checkpoint `c` is the fold of exactly the records
//! before `Barrier(c)` on every input (06-R15). **Law (alignment).** An input that
//! delivered `Barrier(c)` is blocked (06-R5), its elements buffered (06-R9), until the last
//! input delivers it; that call emits `Checkpoint(c)` (06-R6), then re-feeds the buffer in
//! arrival order (06-R7).
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
