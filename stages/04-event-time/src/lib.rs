//! Stage 04 · event time: records stamped with the time they happened, and watermarks
//! that say how far event time has surely progressed.
//!
//! **Law.** A watermark `W` promises that no record with a timestamp `<= W` follows. The
//! bounded-out-of-orderness watermark is `max_ts - max_delay - 1` (04-R1), and there is
//! none until `max_ts > max_delay` (04-R2); watermarks never go back (04-R4) (04-R7)
//! (04-R9); a record `<=` an earlier watermark is late (04-R6); an operator with several
//! inputs takes the minimum of their watermarks (04-R7), and has none until every input
//! has reported (04-R8).
#![doc = include_str!("../README.md")]

mod bounded;
mod combined;
mod event;
mod generate;
mod late;

pub use bounded::BoundedOutOfOrderness;
pub use combined::CombinedWatermark;
pub use event::{Event, StreamElement, Timestamp};
pub use generate::with_watermarks;
pub use late::split_late;

#[cfg(doctest)]
#[doc = include_str!("../../../hints/04.md")]
struct HintSnippets;
