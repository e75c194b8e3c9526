//! Build → supervise → judge, written once: `byo test`, `byo grade` and `byo trace --mine`
//! all build a stage's grade binary with cargo, drive it in a child process under
//! [`Limits`], and judge what it observed in this process.
//!
//! A [`Pipeline`] says where (the workspace, the target folder, which side's crates, the
//! extra cargo arguments) and how commands start (a [`Launcher`]); [`Pipeline::ladder`]
//! walks stages in order, a stage that does not build blocking every later one (each
//! stage's crate depends on the one before).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};

mod alone;
mod ladder;
mod shares;
mod together;

pub use alone::Alone;
pub use ladder::{Batch, Ladder, StageRun, Step, stage_uses};
pub use shares::MAX_RESTARTS;
pub use together::workers;

use super::build::{self, Built, Side};
use super::launcher::{Direct, Launcher};
use crate::harness::judge::DriverRun;
use crate::harness::supervisor::{EnvironmentError, Limits};
use crate::harness::{StageReport, StageStatus};
use crate::stages::{self, StageInfo};

/// The verdict on one stage, whatever happened to it.
#[derive(Debug, Clone)]
pub enum StageOutcome {
    /// It built and was judged.
    Judged(StageReport),
    /// It did not build; the compiler's errors.
    DoesNotBuild(String),
    /// An earlier stage it depends on did not build.
    Blocked(u8),
    /// Its grade binary could not be driven (e.g. it refused the request before any case).
    Undriven(String),
    /// The grading machine failed while driving it: the supervisor found so itself (an
    /// [`EnvironmentError`], never from
    /// what the driver or the compiler printed). Nothing is charged to the submission.
    EnvironmentFailed(String),
    /// No grader exists for it yet.
    Ungraded,
}

impl StageOutcome {
    /// Whether the stage passed.
    pub fn passed(&self) -> bool {
        matches!(self, StageOutcome::Judged(r) if r.status() == StageStatus::Passed)
    }
}

/// Where stages are built and driven, and how their commands start.
pub struct Pipeline<'a> {
    root: &'a Path,
    target_dir: Option<&'a Path>,
    side: Side,
    cargo_args: &'a [&'a str],
    launcher: &'a dyn Launcher,
    speak: bool,
    processes: usize,
    restarts: usize,
}

impl<'a> Pipeline<'a> {
    /// The learner's crates of the kata at `root`, in its own target folder, every
    /// command started as it is.
    pub fn new(root: &'a Path) -> Self {
        Self {
            root,
            target_dir: None,
            side: Side::Learner,
            cargo_args: &[],
            launcher: &Direct,
            speak: false,
            processes: workers(),
            restarts: MAX_RESTARTS,
        }
    }

    /// Starts a stage's drivers again at most `restarts` times after a death (default
    /// [`MAX_RESTARTS`]).
    pub fn restarts(self, restarts: usize) -> Self {
        Self { restarts, ..self }
    }

    /// Splits a stage's cases across up to `processes` drivers at once (default: one per
    /// core, or `BYO_JUDGE_WORKERS`); the report is the same for any number.
    pub fn processes(self, processes: usize) -> Self {
        Self {
            processes: processes.max(1),
            ..self
        }
    }

    /// Builds into `dir` instead of the workspace's own target folder.
    pub fn target_dir(self, dir: &'a Path) -> Self {
        Self {
            target_dir: Some(dir),
            ..self
        }
    }

    /// Builds `side`'s crates.
    pub fn side(self, side: Side) -> Self {
        Self { side, ..self }
    }

    /// Passes `args` to every cargo build (grading passes `--offline --locked`).
    pub fn cargo_args(self, args: &'a [&'a str]) -> Self {
        Self {
            cargo_args: args,
            ..self
        }
    }

    /// Starts builds and drivers through `launcher`.
    pub fn launcher(self, launcher: &'a dyn Launcher) -> Self {
        Self { launcher, ..self }
    }

    /// Says what it builds and shows progress while cargo runs (on standard error): for
    /// the learner's verbs, where a first build must not look hung.
    pub fn speaking(self) -> Self {
        Self {
            speak: true,
            ..self
        }
    }

    /// Builds the grade binaries of `selected` and keeps the compiler's warnings on each
    /// stage's crate (see [`build::build_all`]).
    ///
    /// # Errors
    /// When cargo cannot be run.
    pub fn build_all(&self, selected: &[&StageInfo]) -> Result<build::Builds> {
        build::build_all(
            self.root,
            self.target_dir,
            selected,
            self.side,
            self.cargo_args,
            self.launcher,
            self.speak,
        )
    }

    /// Builds the grade binaries of `selected` (see [`build::build`]).
    ///
    /// # Errors
    /// When cargo cannot be run.
    pub fn build(&self, selected: &[&StageInfo]) -> Result<BTreeMap<u8, Built>> {
        self.build_all(selected).map(|b| b.built)
    }

    /// Drives `binary`, stage `stage`'s grade binary, over the plan of `seed` (or only
    /// its case `only`) under `limits`, and returns what the drivers reported: the cases
    /// split across [`processes`](Self::processes) drivers, a driver that dies started
    /// again after its case (see `shares`).
    ///
    /// # Errors
    /// When the stage has no grader, or a driver cannot be started or refuses.
    pub fn drive(
        &self,
        binary: &Path,
        stage: u8,
        seed: u64,
        only: Option<usize>,
        limits: Limits,
    ) -> Result<DriverRun> {
        let fingerprint = stages::plan_fingerprint(stage, seed)
            .with_context(|| format!("stage {stage:02} has no grader"))?;
        let checks = stages::plan_checks(stage, seed).unwrap_or_default();
        let cases = match only {
            Some(index) => vec![index],
            None => (0..checks.len()).collect(),
        };
        let drive = shares::Drive {
            binary,
            stage,
            seed,
            fingerprint,
            checks: &checks,
            limits,
            restarts: self.restarts,
        };
        self.drive_shares(&drive, cases, self.processes)
    }

    /// Drives `binary` as [`drive`](Self::drive) does and judges what it observed.
    pub fn judge(
        &self,
        binary: &Path,
        stage: u8,
        seed: u64,
        only: Option<usize>,
        limits: Limits,
    ) -> StageOutcome {
        if let Some(index) = only {
            let len = stages::plan_len(stage, seed).unwrap_or(0);
            if index >= len {
                return StageOutcome::Undriven(format!(
                    "--case {index} is not in the plan of stage {stage:02}, whose cases are 0 to {}",
                    len.saturating_sub(1)
                ));
            }
        }
        if stages::grader(stage).is_none() {
            return StageOutcome::Ungraded;
        }
        match self.drive(binary, stage, seed, only, limits) {
            Ok(run) => match stages::judge(stage, seed, only, &run) {
                Some(report) => StageOutcome::Judged(report),
                None => StageOutcome::Ungraded,
            },
            Err(e) if e.chain().any(|c| c.is::<EnvironmentError>()) => {
                StageOutcome::EnvironmentFailed(format!("{e:#}"))
            }
            Err(e) => StageOutcome::Undriven(format!("{e:#}")),
        }
    }

    /// Judges case `index` of the plan alone.
    pub fn replay(
        &self,
        binary: &Path,
        stage: u8,
        seed: u64,
        index: usize,
        limits: Limits,
    ) -> StageOutcome {
        self.judge(binary, stage, seed, Some(index), limits)
    }
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
