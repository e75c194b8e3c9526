//! Where a kill landed: the phase markers a run prints, and the categories the harness
//! sorts its kills into, so that "VERIFIED" says which windows the kills really tested.
//!
//! A run started with `--phase-markers` writes `phase: <name>` to stderr, unbuffered,
//! as it enters each phase; a SIGKILL cannot lose a line whose `write` returned. The
//! harness reads the last marker of the killed run.

use std::fmt;

use anyhow::Result;
use committer::{Step, Tripwire};

/// The prefix of a phase marker line.
pub const MARKER: &str = "phase: ";

/// A phase of a run, as it marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// A subtask's `on_open`: discarding the orphans it is responsible for.
    Sweep,
    /// Recovering the restored handles.
    Recovery,
    /// Reading records into the open transactions.
    Writing,
    /// A barrier: pre-commit, checkpoint completion, notifications (the commits).
    PreCommit,
}

impl Phase {
    /// Prints the marker (when `enabled`).
    pub fn mark(self, enabled: bool) {
        if enabled {
            eprintln!("{MARKER}{self}");
        }
    }

    /// The phase a marker names.
    pub fn parse(name: &str) -> Option<Phase> {
        [
            Phase::Sweep,
            Phase::Recovery,
            Phase::Writing,
            Phase::PreCommit,
        ]
        .into_iter()
        .find(|phase| phase.to_string() == name)
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Sweep => "sweep",
            Phase::Recovery => "recovery",
            Phase::Writing => "writing",
            Phase::PreCommit => "precommit",
        })
    }
}

/// Marks [`Phase::Recovery`] when the base finishes `on_open` (the orphan sweep).
#[derive(Debug, Clone, Copy)]
pub struct PhaseTripwire {
    /// Whether markers are printed.
    pub enabled: bool,
}

impl Tripwire for PhaseTripwire {
    fn reached(&mut self, step: Step) -> Result<()> {
        if let Step::Opened(_) = step {
            Phase::Recovery.mark(self.enabled);
        }
        Ok(())
    }

    /// Only the end of the orphan sweep is marked; records pass unwatched.
    fn watches_writes(&self) -> bool {
        false
    }
}

/// Where a kill landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Landing {
    /// Before the run opened anything (process start, configuration, fences).
    Starting,
    /// Writing or pre-committing before the job's first checkpoint completed: the
    /// restart will restore nothing.
    BeforeFirstCheckpoint,
    /// Writing records of an epoch, with earlier checkpoints completed.
    MidEpoch,
    /// Inside a barrier: between pre-commit and the commits.
    BetweenPreCommitAndCommit,
    /// Recovering restored handles.
    Recovery,
    /// Sweeping orphans at open.
    OrphanSweep,
}

impl Landing {
    /// The categories a verified run must have hit.
    pub const MEASURED: [Landing; 5] = [
        Landing::BeforeFirstCheckpoint,
        Landing::MidEpoch,
        Landing::BetweenPreCommitAndCommit,
        Landing::Recovery,
        Landing::OrphanSweep,
    ];

    /// Where the run whose log is `log` was when it was killed.
    pub fn of_run(log: &str) -> Landing {
        let mut tracker = Tracker::new(!log.contains("restored nothing"));
        log.lines().for_each(|line| tracker.feed(line));
        tracker.landing()
    }
}

/// Follows a run's phase markers as they come: where a kill would land now.
#[derive(Debug, Clone)]
pub struct Tracker {
    checkpointed: bool,
    last: Option<Phase>,
}

impl Tracker {
    /// A run that restores a checkpoint (`restores`), or starts from nothing.
    pub fn new(restores: bool) -> Self {
        Self {
            checkpointed: restores,
            last: None,
        }
    }

    /// Takes in one line of the run's output (lines that are no markers change nothing).
    pub fn feed(&mut self, line: &str) {
        let Some(phase) = line.strip_prefix(MARKER).and_then(Phase::parse) else {
            return;
        };
        // Writing again after a barrier: that barrier's checkpoint completed.
        if self.last == Some(Phase::PreCommit) && phase == Phase::Writing {
            self.checkpointed = true;
        }
        self.last = Some(phase);
    }

    /// Where a kill would land now.
    pub fn landing(&self) -> Landing {
        match self.last {
            None => Landing::Starting,
            Some(Phase::Sweep) => Landing::OrphanSweep,
            Some(Phase::Recovery) => Landing::Recovery,
            Some(Phase::PreCommit) if self.checkpointed => Landing::BetweenPreCommitAndCommit,
            Some(_) if self.checkpointed => Landing::MidEpoch,
            Some(_) => Landing::BeforeFirstCheckpoint,
        }
    }
}

impl fmt::Display for Landing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Landing::Starting => "starting",
            Landing::BeforeFirstCheckpoint => "before the first checkpoint",
            Landing::MidEpoch => "mid-epoch",
            Landing::BetweenPreCommitAndCommit => "between pre-commit and commit",
            Landing::Recovery => "during recovery",
            Landing::OrphanSweep => "during the orphan sweep",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kill_is_placed_by_the_last_marker_and_what_came_before() {
        assert_eq!(Landing::of_run(""), Landing::Starting);
        let fresh =
            "phase: sweep\nphase: recovery\ng1: restored nothing at offset 0\nphase: writing\n";
        assert_eq!(Landing::of_run(fresh), Landing::BeforeFirstCheckpoint);
        let first = format!("{fresh}phase: precommit\n");
        assert_eq!(Landing::of_run(&first), Landing::BeforeFirstCheckpoint);
        let second = format!("{first}phase: writing\n");
        assert_eq!(Landing::of_run(&second), Landing::MidEpoch);
        let barrier = format!("{second}phase: precommit\n");
        assert_eq!(
            Landing::of_run(&barrier),
            Landing::BetweenPreCommitAndCommit
        );
        let restored = "phase: sweep\nphase: recovery\ng2: restored checkpoint 3 at offset 150\nphase: writing\n";
        assert_eq!(Landing::of_run(restored), Landing::MidEpoch);
        assert_eq!(Landing::of_run("phase: sweep\n"), Landing::OrphanSweep);
        assert_eq!(
            Landing::of_run("phase: sweep\nphase: recovery\n"),
            Landing::Recovery
        );
    }
}
