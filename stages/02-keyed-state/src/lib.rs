//! Stage 02 · keyed state: keyed streams and per-key state.
//!
//! **Law (isolation).** A keyed function processing a record of key `k` sees exactly the
//! state that the earlier records of `k` left behind, and nothing of any other key; what
//! it leaves is `k`'s state afterwards (02-R14).
//!
//! **Law (durability).** The keyed state goes to bytes and comes back unchanged, so an
//! operator restored after any record continues exactly as the one that took the snapshot
//! (02-R15).
#![doc = include_str!("../README.md")]

mod function;
mod operator;
mod state;
mod word_count;

pub use function::KeyedProcessFunction;
// Re-exported so that users of keyed operators need not name stage 01 for the trait.
pub use operator::KeyedProcessOperator;
pub use stage01::Operator;
pub use state::KeyedState;
pub use word_count::{WordCount, word_count};

#[cfg(doctest)]
#[doc = include_str!("../../../hints/02.md")]
struct HintSnippets;
