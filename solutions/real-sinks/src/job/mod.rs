//! The crash-test pipeline: a generated replayable input, durable checkpoints, and one
//! of the real sinks, run as a process that may be killed at any instant.

mod barrier;
mod checkpoint;
mod checkpoints;
mod config;
mod fence;
mod hook;
mod input;
mod lineage;
mod marks;
mod pipeline;
mod seal;
mod sinks;

pub use checkpoints::{Checkpoint, CheckpointStore, Restored, files as checkpoint_files};
pub use config::{JobConfig, SinkKind};
pub use fence::{FolderFence, RunFence};
pub use hook::{Hook, Point, Reach};
pub use input::{InputRecord, generate};
pub use lineage::{Claim, Lineage, settle};
pub use marks::{SinkMark, check_restore, file_mark, upsert_mark, xa_mark};
pub use pipeline::{KEYS, MAX_PARALLELISM, RunGuards, RunSummary, route, run};
pub use seal::{CHECKPOINT_VERSION, decode, encode};
pub use sinks::{RunOptions, run_with, run_with_options, upsert_change};
