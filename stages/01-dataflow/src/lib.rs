//! Stage 01 · dataflow: records flow from a replayable source through a chain of operators.
//!
//! **Law (replay).** After `seek(o)`, draining a source yields exactly the records at
//! offsets `o..len`, and `position()` grows by one per record polled (01-R11). Seeking
//! past the end is an error (01-R4).
//!
//! **Law (composition).** A chain of operators produces exactly what the same functions
//! produce over the records as an iterator (01-R12).
#![doc = include_str!("../README.md")]

mod operator;
mod run;
mod source;

pub use operator::{Chain, Filter, FlatMap, Map, Operator};
pub use run::run;
pub use source::{Offset, Source, VecSource};

#[cfg(doctest)]
#[doc = include_str!("../../../hints/01.md")]
struct HintSnippets;
