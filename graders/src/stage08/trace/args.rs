//! The arguments of `byo trace 08`: one schedule of the stage-08 plan, checked against
//! the stage's rules, and how to find that schedule's run in a driver's observation.

use anyhow::{Context, Result, bail};

use super::super::driver::{Observation, SpiedRun};
use super::super::oracle::Schedule;
use super::super::plan::{Case, MAX_LAG, MAX_LEN, plan};
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::judge::DriverRun;
use crate::harness::protocol::Outcome;

/// The arguments of `byo trace 08`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceArgs {
    /// `--records N`: the plan's input of length `N`.
    pub records: usize,
    /// `--barrier-every B`.
    pub barrier_every: usize,
    /// `--crash-after K` (absent: no crash).
    pub crash_after: Option<usize>,
    /// `--lag L`.
    pub lag: usize,
    /// `--mine`: run the learner's code too.
    pub mine: bool,
    /// `--seed S` (the plan's seed).
    pub seed: u64,
}

impl TraceArgs {
    /// Parses the arguments after `trace 08`.
    ///
    /// # Errors
    /// An unknown flag, a missing or non-numeric value, or a schedule outside the
    /// stage's rules, each naming the flag.
    pub fn parse(args: &[String]) -> Result<Self> {
        let mut parsed = TraceArgs {
            records: 0,
            barrier_every: 1,
            crash_after: None,
            lag: 0,
            mine: false,
            seed: DEFAULT_SEED,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = |name: &str| -> Result<u64> {
                let raw = it.next().with_context(|| format!("{name} needs a value"))?;
                raw.parse()
                    .with_context(|| format!("{name} must be a number, got {raw:?}"))
            };
            match flag.as_str() {
                "--records" => parsed.records = value("--records")? as usize,
                "--barrier-every" => parsed.barrier_every = value("--barrier-every")? as usize,
                "--crash-after" => parsed.crash_after = Some(value("--crash-after")? as usize),
                "--lag" => parsed.lag = value("--lag")? as usize,
                "--seed" => parsed.seed = value("--seed")?,
                "--mine" => parsed.mine = true,
                other => bail!(
                    "unknown argument {other:?}; usage: byo trace 08 --records N --barrier-every B [--crash-after K] --lag L [--mine] [--seed S]"
                ),
            }
        }
        if parsed.barrier_every == 0 {
            bail!("--barrier-every must be at least 1, got 0");
        }
        if let Some(k) = parsed.crash_after
            && k > parsed.records
        {
            bail!(
                "--crash-after must be at most --records ({}), got {k}",
                parsed.records
            );
        }
        if parsed.mine {
            if parsed.records > MAX_LEN {
                bail!(
                    "--records must be at most {MAX_LEN} with --mine (the graded inputs), got {}",
                    parsed.records
                );
            }
            if parsed.barrier_every > parsed.records + 1 {
                bail!(
                    "--barrier-every must be at most --records + 1 ({}) with --mine, got {}",
                    parsed.records + 1,
                    parsed.barrier_every
                );
            }
            if parsed.lag > MAX_LAG {
                bail!(
                    "--lag must be at most {MAX_LAG} with --mine, got {}",
                    parsed.lag
                );
            }
        }
        Ok(parsed)
    }

    /// The schedule these arguments name.
    pub(super) fn schedule(&self) -> Schedule {
        Schedule {
            len: self.records,
            barrier_every: self.barrier_every,
            crash_after: self.crash_after,
            commit_lag: self.lag,
        }
    }

    /// The plan index of the `protocol` case whose grid holds this schedule: the case a
    /// driver must run (`Request::only`) for `--mine`.
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
            None => match &run.death {
                Some((_, fault)) => bail!("the driver died: {fault:?}"),
                None => bail!("the driver reported nothing for case {index}"),
            },
        };
        let observation: Observation =
            serde_json::from_value(value.clone()).context("reading the driver's observation")?;
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
