//! Stage 03 · parallelism: key groups, partitioning, rescaling.
//!
//! **Law.** A key's key group (`stable_hash(key) % max_parallelism`) never changes
//! (03-R16) (03-R17) (03-R18); the ranges of the `p` subtasks tile `[0, max_parallelism)`
//! (03-R20); a record goes to the subtask whose range holds its key group (03-R1); and a
//! rescale `p -> q` moves every key's state exactly once, to the new subtask that owns its
//! key group (03-R11) (03-R12) (03-R13).
#![doc = include_str!("../README.md")]

mod count;
mod hash;
mod key_group;
mod partition;
mod rescale;
mod subtask;

pub use count::parallel_count;
pub use hash::stable_hash;
pub use key_group::{key_group_for, key_group_range, operator_index_for};
pub use partition::partition;
pub use rescale::{parents, rescale};
pub use subtask::KeyedSubtask;

/// Flink's default `max_parallelism` for small jobs: the number of key groups.
pub const DEFAULT_MAX_PARALLELISM: u32 = 128;

#[cfg(doctest)]
#[doc = include_str!("../../../hints/03.md")]
struct HintSnippets;
