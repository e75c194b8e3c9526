//! Stage 05 · windows: per-key aggregates over event-time windows, fired by watermarks.
//!
//! **Law.** A record belongs to every window of its assigner that contains its timestamp
//! (05-R8) (05-R10). A window has fired once the watermark has reached its `end - 1`,
//! whether or not it held records (05-R4). Each (key, window) that received records fires
//! exactly once, in the `on_watermark` call where `wm >= end - 1` first holds (05-R2),
//! with the records that arrived before; its state is then dropped (05-R3). A record whose
//! windows have all fired is late and counted nowhere (05-R6). The state to snapshot is
//! the aggregates and the current watermark (05-R15).
#![doc = include_str!("../README.md")]

mod assigner;
mod operator;
mod sums;
mod window;

pub use assigner::{Sliding, Tumbling, WindowAssigner};
pub use operator::{KeyedEvent, Late, WindowOperator, WindowResult};
// Re-exported so that users of windows need not name stage 04 for the stream's types.
pub use stage04::{Event, StreamElement, Timestamp};
pub use sums::window_sums;
pub use window::Window;

#[cfg(doctest)]
#[doc = include_str!("../../../hints/05.md")]
struct HintSnippets;
