//! Stage 04 reference · event time: records carry the time they happened, arrive out of
//! order, and watermarks say how far event time has surely progressed.
//!
//! **Law (watermark).** A watermark `W` in a stream promises that no record with a
//! timestamp `<= W` follows it. The bounded-out-of-orderness generator keeps that promise
//! for every stream whose records arrive at most `max_delay` behind the largest timestamp
//! seen so far: its watermark is `max_ts - max_delay - 1`, and there is none until
//! `max_ts > max_delay` (event time starts at 0; it cannot go below it).
//!
//! **Law (monotony).** Watermarks never go back. A generator emits a watermark only when
//! it advanced; a combiner emits one only when its minimum advanced.
//!
//! **Law (lateness).** A record is late exactly when its timestamp is `<=` a watermark
//! that came before it: it breaks a promise already made, so whatever the promise
//! triggered (a window that fired, stage 05) cannot include it.
//!
//! **Law (minimum).** An operator with several inputs has seen event time progress only as
//! far as its slowest input: its watermark is the minimum of its inputs' watermarks, and it
//! has none until every input has reported one.

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
