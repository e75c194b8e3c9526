//! Stage 01 · dataflow: records flow from a replayable source through a chain of operators.
//!
//! **Law (replay).** After `seek(o)`, draining a source yields exactly the records at
//! offsets `o..len`, and `position()` grows by one per record polled. Seeking past the
//! end is an error.
//!
//! **Law (composition).** A chain of operators produces exactly what the same functions
//! produce over the records as an iterator.
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
