//! The crash-test pipeline: a generated replayable input, durable checkpoints, and one
//! of the real sinks, run as a process that may be killed at any instant.

mod checkpoints;
mod config;
mod fence;
mod input;
mod marks;
mod pipeline;
mod sinks;

pub use checkpoints::{CHECKPOINT_VERSION, Checkpoint, CheckpointStore, decode, encode};
pub use config::{JobConfig, SinkKind};
pub use fence::{FolderFence, RunFence};
pub use input::{InputRecord, generate};
pub use marks::{SinkMark, check_restore, file_mark, upsert_mark, xa_mark};
pub use pipeline::{KEYS, MAX_PARALLELISM, RunGuards, RunSummary, route, run};
pub use sinks::{RunOptions, run_with, run_with_options, upsert_change};
