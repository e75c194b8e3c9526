//! Confining and scheduling: where a submission's code runs, and when. It takes in the
//! instructor's checkout, the run's limits and `--jobs`; it hands on held [`slots`], each
//! with its pristine and over-reference trees ([`over_reference`]) and the graders built
//! before any submission's code runs (`preflight`) and checked before each one
//! ([`judge_side`]), the [`jail`] every build and driver runs in (with only the parts of
//! `$CARGO_HOME` a build needs, [`cargo_home`], a learner crate's rustc in a sandbox of
//! its own, [`rustc_jail`], a process limit, [`pids`], and a memory cap on a submission's build,
//! [`memory`]), the
//! [`lock`]s that keep two runs apart, the [`jobs`] that grade the submissions one
//! slot each, and each stage's time [`budget`], from the reference's own time.

pub mod budget;
pub mod cargo_home;
pub mod jail;
pub mod jobs;
pub mod judge_side;
pub mod lock;
pub mod memory;
pub mod over_reference;
pub mod pids;
pub(crate) mod preflight;
pub mod rustc_jail;
pub mod slots;
