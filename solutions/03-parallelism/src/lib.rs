//! Stage 03 reference · parallelism: a keyed operator runs as `p` subtasks, each owning a
//! contiguous range of key groups.
//!
//! **Law (key groups).** A key's key group depends on the key and on `max_parallelism`
//! only: `stable_hash(key) % max_parallelism`. It never depends on the parallelism, so a
//! key keeps its key group for the whole life of a job, across every rescale.
//!
//! **Law (tiling).** For every parallelism `p` in `1..=max_parallelism`, the ranges
//! `key_group_range(i, p, maxp)` for `i` in `0..p` are non-empty, contiguous, disjoint
//! and cover `[0, maxp)` in order; and `operator_index_for(g, p, maxp)` is the one `i`
//! whose range holds `g`. Routing a record and owning its state are the same decision.
//!
//! **Law (order).** `partition` keeps the relative order of the records of each key: one
//! key always goes to one subtask, and each subtask receives its records in input order.
//!
//! **Law (rescale).** Rescaling from `p` to `q` subtasks moves whole key groups: every key's
//! state ends up exactly once, on the new subtask whose range holds its key group, and the
//! new subtask `j` reads only from the old subtasks whose ranges overlap its own
//! ([`parents`]).
//!
//! Why key groups instead of `hash % p`: with modulo routing, changing `p` reshuffles
//! almost every key, so rescaling would have to rehash all state. With key groups,
//! `max_parallelism` is the unit of state movement; a rescale only moves group ranges, and
//! a new subtask can read its groups from a few old snapshots.

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
