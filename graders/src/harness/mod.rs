//! What every stage's grader is made of, and the machinery that runs them.
//!
//! Layers, each using only those above it: `case`, `diff`, `rng`, `enumerate`, `protocol`,
//! `printed`, `sizes`, `information`, `derivable` (data and pure helpers); `stage` (the
//! [`Stage`] trait and the [`grader!`](crate::grader) macro); `arguments` (the shared
//! "error names the argument" judge); `process` (child processes that end with their
//! run), then `judge`, `sequence`, `lines`, `cap` and `supervisor` (a driver run to a
//! report, the printed lines placed in their case and run) and `bounded` (a build run to
//! its end); `driver` (runs cases and, in process, renders the report through
//! [`crate::report`]); `catalogue` (what mutant catalogues assert). Nothing here reaches
//! the stage graders or their registry.

pub mod arguments;
pub mod bounded;
pub(crate) mod cap;
pub mod capture;
pub mod case;
pub mod catalogue;
pub mod counter;
pub mod damaged;
pub mod derivable;
pub mod diff;
pub mod driver;
pub mod enumerate;
pub mod information;
pub mod judge;
pub mod layouts;
mod lines;
pub mod padding;
pub mod past_u64;
pub mod printed;
pub mod process;
pub mod protocol;
pub mod renamed;
pub mod requirements;
pub mod rng;
pub mod sandbox;
mod sequence;
pub mod sizes;
pub mod stage;
pub mod strict_json;
pub mod supervisor;

pub use case::{Case, Check, Failure};
pub use catalogue::{expect_accepted, expect_rejected, expect_rejected_for};
pub use judge::{CaseFailure, CheckReport, Clock, Fault, StageReport, StageStatus};
pub use stage::Stage;
