//! A deterministic simulator of a job around the committer framework: a replayable
//! source, `p` sink subtasks, a coordinator with a commit lag and notification
//! faults, a checkpoint store, crashes at any named step, restarts (possibly at
//! another parallelism, possibly from an older checkpoint), failing commits, and
//! zombies fenced by the runs that replaced them. Shared by the `framework_*` and `committer_*` tests.
// Each test file uses a different part of the simulator.
#![allow(dead_code, unused_imports, unreachable_pub)]

pub mod adopters;
pub mod checkpoints;
pub mod expect;
pub mod faults;
pub mod job;
pub mod schedule;
pub mod tripwire;

pub use adopters::{Adopter, AppendShape, ShapeA, ShapeB, ShapeC};
pub use faults::CommitFault;
pub use job::{Outcome, run};
pub use schedule::{Distribution, Fault, Schedule};

/// Key groups of the simulated job.
pub const MAX_PARALLELISM: u32 = 128;
