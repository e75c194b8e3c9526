//! The crash-test pipeline: a generated replayable input, durable checkpoints, and one
//! of the real sinks, run as a process that may be killed at any instant.

mod checkpoints;
mod config;
mod fence;
mod input;
mod pipeline;
mod sinks;

pub use checkpoints::{Checkpoint, CheckpointStore};
pub use config::{JobConfig, SinkKind};
pub use fence::{FolderFence, RunFence};
pub use input::{InputRecord, generate};
pub use pipeline::{KEYS, MAX_PARALLELISM, RunSummary, route, run};
pub use sinks::{run_with, upsert_change};
