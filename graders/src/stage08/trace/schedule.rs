//! The schedule a trace draws: one input length, barrier interval, crash point and lag of
//! the stage-08 plan under a seed, checked against the stage's rules, and how to find
//! that schedule's run in a driver's observation.

use anyhow::{Context, Result, bail};

use super::super::driver::{Observation, SpiedRun};
use super::super::oracle::Schedule;
use super::super::plan::{Case, MAX_LAG, MAX_LEN, plan};
use crate::harness::judge::DriverRun;
use crate::harness::protocol::Outcome;

/// One stage-08 schedule to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trace {
    /// The plan's input of this length.
    pub records: usize,
    /// A barrier after every this many records.
    pub barrier_every: usize,
    /// The crash point, if any.
    pub crash_after: Option<usize>,
    /// Notifications trail their barrier by this many barriers.
    pub lag: usize,
    /// The plan's seed (it draws the records).
    pub seed: u64,
}

/// The longest input a timeline draws: one line per step, so a few screens at most.
pub const MAX_DRAWN: usize = 60;

/// Why a schedule cannot be drawn, or is not one the grader runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// A barrier interval of 0 never cuts a checkpoint.
    NoBarrierInterval,
    /// The crash point lies past the end of the input.
    CrashPastEnd {
        /// The crash point asked for.
        crash_after: usize,
        /// The input's length.
        records: usize,
    },
    /// A timeline of more than `MAX_DRAWN` (60) records is too long to read (and to build).
    TooLongToDraw {
        /// The length asked for.
        records: usize,
    },
    /// The graded inputs are at most [`MAX_LEN`] records long.
    LongerThanGraded {
        /// The length asked for.
        records: usize,
    },
    /// The graded barrier intervals are at most the input's length + 1.
    BarrierPastGraded {
        /// The interval asked for.
        barrier_every: usize,
        /// The input's length.
        records: usize,
    },
    /// The graded lags are at most [`MAX_LAG`].
    LagPastGraded {
        /// The lag asked for.
        lag: usize,
    },
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unfit::NoBarrierInterval => {
                write!(f, "a barrier interval of 0 never cuts a checkpoint")
            }
            Unfit::CrashPastEnd {
                crash_after,
                records,
            } => write!(
                f,
                "a crash after record {crash_after} lies past the end of {records} records"
            ),
            Unfit::TooLongToDraw { records } => write!(
                f,
                "a timeline of {records} records is too long to read; draw at most {MAX_DRAWN}"
            ),
            Unfit::LongerThanGraded { records } => write!(
                f,
                "the graded inputs hold at most {MAX_LEN} records, not {records}"
            ),
            Unfit::BarrierPastGraded {
                barrier_every,
                records,
            } => write!(
                f,
                "the graded barrier intervals are at most the input's length + 1 ({}), not {barrier_every}",
                records + 1
            ),
            Unfit::LagPastGraded { lag } => {
                write!(f, "the graded lags are at most {MAX_LAG}, not {lag}")
            }
        }
    }
}

impl Trace {
    /// Whether this schedule can be drawn at all.
    ///
    /// # Errors
    /// A barrier interval of 0, or a crash point past the end of the input.
    pub fn check(&self) -> Result<(), Unfit> {
        if self.records > MAX_DRAWN {
            return Err(Unfit::TooLongToDraw {
                records: self.records,
            });
        }
        if self.barrier_every == 0 {
            return Err(Unfit::NoBarrierInterval);
        }
        match self.crash_after {
            Some(crash_after) if crash_after > self.records => Err(Unfit::CrashPastEnd {
                crash_after,
                records: self.records,
            }),
            _ => Ok(()),
        }
    }

    /// Whether this schedule is one the grader runs, so a learner's run of it exists.
    ///
    /// # Errors
    /// Any reason of [`check`](Self::check), or a length, interval or lag past the plan's bounds.
    pub fn check_graded(&self) -> Result<(), Unfit> {
        self.check()?;
        if self.records > MAX_LEN {
            return Err(Unfit::LongerThanGraded {
                records: self.records,
            });
        }
        if self.barrier_every > self.records + 1 {
            return Err(Unfit::BarrierPastGraded {
                barrier_every: self.barrier_every,
                records: self.records,
            });
        }
        if self.lag > MAX_LAG {
            return Err(Unfit::LagPastGraded { lag: self.lag });
        }
        Ok(())
    }

    /// The oracle's schedule.
    pub(super) fn schedule(&self) -> Schedule {
        Schedule {
            len: self.records,
            barrier_every: self.barrier_every,
            crash_after: self.crash_after,
            commit_lag: self.lag,
        }
    }

    /// The plan index of the `protocol` case whose grid holds this schedule: the case a
    /// driver must run (the one case of its `Request`) to show the learner's run of it.
    pub fn protocol_case(&self) -> Option<usize> {
        plan(self.seed).iter().position(|case| {
            matches!(case, Case::Protocol { records, barrier_every }
                if records.len() == self.records && *barrier_every == self.barrier_every)
        })
    }

    /// The learner's run of this schedule, out of the driver run of [`protocol_case`](Self::protocol_case).
    ///
    /// # Errors
    /// When the driver died, panicked, or returned something else than a protocol grid.
    pub fn mine_from(&self, run: &DriverRun, index: usize) -> Result<SpiedRun> {
        let value = match run.outcomes.get(&index) {
            Some(Outcome::Returned(value)) => value,
            Some(Outcome::Panicked { message, location })
                if message.starts_with("not yet implemented") =>
            {
                bail!(
                    "not started: your code reaches todo!() at {}",
                    location.as_deref().unwrap_or("an unknown place")
                )
            }
            Some(Outcome::Panicked { message, location }) => bail!(
                "your code panicked before the run could be traced: {message} (at {})",
                location.as_deref().unwrap_or("an unknown place")
            ),
            None => match run.deaths.values().next() {
                Some(fault) => bail!("the driver died: {fault:?}"),
                None => bail!("the driver reported nothing for case {index}"),
            },
        };
        let observation: Observation =
            serde_json::from_str(value.get()).context("reading the driver's observation")?;
        let Observation::Protocol { cells } = observation else {
            bail!("case {index} is not a protocol case");
        };
        let cell = Case::cells(self.records)
            .iter()
            .position(|cell| *cell == (self.crash_after, self.lag))
            .context("this crash point and lag are not in the grid")?;
        cells
            .get(cell)
            .cloned()
            .context("the driver recorded no run for this cell")
    }
}
