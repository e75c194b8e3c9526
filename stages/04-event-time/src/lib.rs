//! Stage 04 · event time: records carry the time they happened and arrive out of order;
//! watermarks say how far event time has surely progressed.
//!
//! **Law.** A watermark `W` promises that no record with a timestamp `<= W` follows. The
//! bounded-out-of-orderness watermark is `max_ts - max_delay - 1` (none until
//! `max_ts > max_delay`); watermarks never go back; a record `<=` an earlier watermark is
//! late; an operator with several inputs takes the minimum of their watermarks, and has
//! none until every input has reported.
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
