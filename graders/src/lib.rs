//! The graders of the kata: one codebase that judges learner crates, reference
//! solutions, mutants and instructors' submissions alike.
//!
//! Every stage has four parts, each in its own file under `stageNN/`:
//!
//! - a **plan** ([`harness::Stage::plan`]): the exhaustive list of cases, built from a
//!   seed, smallest first, so the first failure of a check is its smallest;
//! - a **binding** trait and macro: the small surface through which a driver calls an
//!   implementation. The macro (`bind_stageNN!`) expands inside the crate that owns the
//!   implementation, which is how a grader's spy can implement the learner's trait
//!   despite the orphan rule;
//! - a **driver** (`drive`): runs one case against a binding and records what it
//!   observed, including every call the implementation made on a spy the grader handed it;
//! - a **judge** and its **oracle**: compare an observation with what the laws of the
//!   stage demand and explain the first difference.
//!
//! The driver runs in a child process, next to the untrusted code; the judge runs in the
//! `byo` process and only reads the driver's observations (see [`harness::supervisor`]).
//! A panic, an early exit, an endless loop or a stack overflow in learner code therefore
//! costs only its own stage, and a submission never decides its own grade.
//!
//! Adding a stage means writing those four parts, declaring the grader with
//! [`grader!`] in the stage's `mod.rs` (which also generates its `bind_stageNN!`), and
//! one line in [`stages`]; the crash dimension (snapshot to bytes, drop, restore,
//! continue) is just another kind of case in a plan, judged against the uninterrupted
//! run.
//!
//! # Layers
//!
//! Each layer uses only the layers above it, so no file of layers 1 to 4 takes part in
//! an import cycle:
//!
//! 1. [`ladder`]: the stages' numbers, slugs and titles, as data only.
//! 2. [`harness`]: cases, failures, the [`harness::Stage`] trait, the wire protocol, the
//!    judge of a driver run, the supervisor, the driver's `main`, shared judges
//!    ([`harness::arguments`]) and enumerations; [`misconception`], the cards that name
//!    the belief behind a failure (recognised from the report alone); and [`report`],
//!    which renders a stage report (reading the ladder for its title and the cards).
//!    None reaches a stage grader.
//! 3. `stage01` .. `stage08`: each stage's plan, binding, driver, judge and oracle,
//!    using only the harness (never the CLI, the registry or terminal styling; stage 08's
//!    `trace` view is the one exception, pending its move to the CLI).
//! 4. [`stages`]: the registry of graders, by number, with their types erased.
//! 5. [`cli`]: the `byo` command, the only user of the registry in this crate.

// A judge's `Failure` is the explanation a learner reads, built once per failing case
// and never on a hot path: boxing it would buy nothing but noise at every `Err(..)`.
#![allow(clippy::result_large_err)]

#[cfg(test)]
mod browser;
pub mod cli;
pub mod harness;
pub mod ladder;
pub mod misconception;
pub mod report;
pub mod stages;

pub mod stage01;
pub mod stage02;
pub mod stage03;
pub mod stage04;
pub mod stage05;
pub mod stage06;
pub mod stage07;
pub mod stage08;

#[doc(hidden)]
pub use anyhow as __anyhow;
