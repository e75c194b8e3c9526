//! Stage 05 reference · windows: per-key aggregates over event-time windows, fired by
//! watermarks.
//!
//! **Law (assignment).** A record at `ts` belongs to every window `[start, end)` of its
//! assigner that contains `ts`: one tumbling window, or `size / slide` (rounded up, fewer
//! near time 0) sliding ones.
//!
//! **Law (firing).** A window `w` of key `k` fires exactly once, in the `on_watermark`
//! call where `wm >= w.end - 1` first holds: `end - 1` is the last timestamp the window
//! can hold, and the watermark just promised no record `<=` it will come. It carries the
//! sum and count of exactly the records of `k` in `w` that arrived before that call. Its
//! state is then dropped, so once the watermark has passed every window, no state is left.
//!
//! **Law (lateness).** A record whose windows have all fired already is late: it is
//! returned to the caller (the side output) and counted nowhere. A record with at least
//! one open window is not late, even behind the watermark; it counts in its open windows
//! only (the ones that fired cannot take it back).
//!
//! **Law (durability).** The operator's state is its open windows **and** its current
//! watermark. Restored from bytes after any element, it fires exactly what the
//! uninterrupted operator fires: without the watermark, it would take late records into
//! windows that already fired, or fire a window a second time.

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
