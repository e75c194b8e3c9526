//! Stage 02 reference · keyed state: `key_by` routes each record to the state of its key.
//!
//! **Law (isolation).** A keyed function processing a record of key `k` sees exactly the
//! state that the earlier records of `k` left behind, and nothing of any other key. The
//! state of `k` after a prefix of the stream is the fold of that prefix's records of `k`,
//! whatever the other keys did in between.
//!
//! **Law (durability).** The keyed state is plain data: it goes to bytes and comes back
//! unchanged, so an operator restored from a snapshot taken after any record continues
//! exactly as the one that took it would have.
//!
//! [`word_count`] puts the pieces of stages 01 and 02 together: a `FlatMap` splits lines
//! into words, and a [`KeyedProcessOperator`] keyed by the word keeps each word's count.

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
