//! Stage 01 reference · dataflow: records flow from a replayable source through a chain
//! of operators.
//!
//! **Law (replay).** A source is a log with positions. After `seek(o)`, draining the
//! source yields exactly the records at offsets `o..len`, and `position()` grows by one
//! per record polled. Seeking past the end is an error, never a silent clamp.
//!
//! **Law (composition).** Running a chain of operators over a source yields exactly what
//! the same functions produce over the records as an iterator: operators neither drop,
//! reorder nor invent records.
//!
//! Replay is what makes recovery possible later (stage 07): a job that remembers the
//! position of a consistent cut can crash, seek back to that position and produce the
//! same output again. The crash dimension of this stage checks exactly that: stop after
//! any record, remember `position()`, throw everything away, seek a fresh source there,
//! and continue.

mod operator;
mod run;
mod source;

pub use operator::{Chain, Filter, FlatMap, Map, Operator};
pub use run::run;
pub use source::{Offset, Source, VecSource};
