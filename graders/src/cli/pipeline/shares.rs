//! One stage's cases driven by several drivers at once, one per core, and a driver that
//! dies started again after its case.
//!
//! The plan is dealt out case by case (case `i` to driver `i mod n`), so that each driver
//! gets as many small cases as large ones. Each driver reports its own cases; the
//! outcomes are the same whichever process ran them, and the printing of all is merged
//! into the record one driver would have kept ([`Printed::merge`]), so the report is the
//! one a single driver gives.
//!
//! A death (a time-out, a stack overflow, an exit, a signal) fails the case it happened
//! in. A fresh driver then takes up the share at its first case of another check: the
//! rest of the dead check cannot change its smallest failing case (see
//! [`judge_run`](crate::harness::judge::judge_run)), and skipping it bounds the restarts
//! by the checks. The stage's wall limit holds across restarts, and after
//! [`MAX_RESTARTS`] (or [`Pipeline::restarts`]) a stage's drivers are not started
//! again: the report says so.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Result, anyhow};

use super::Pipeline;
use crate::cli::launcher::DriverLaunch;
use crate::harness::judge::{DriverRun, GaveUp};
use crate::harness::printed::Printed;
use crate::harness::protocol::Request;
use crate::harness::supervisor::{self, Limits};

/// How many times a stage's drivers are started again after a death, unless a pipeline
/// says otherwise: each death costs at most one case's time limit.
pub const MAX_RESTARTS: usize = 10;

/// What every driver of one stage is asked: the stage, its plan and the limits.
pub(super) struct Drive<'p> {
    /// The grade binary.
    pub binary: &'p Path,
    /// The stage number.
    pub stage: u8,
    /// The seed of the plan.
    pub seed: u64,
    /// The plan's fingerprint.
    pub fingerprint: u64,
    /// The check of every case of the plan.
    pub checks: &'p [&'static str],
    /// The limits (the stage's wall limit for all its drivers together).
    pub limits: Limits,
    /// How many times its drivers may be started again after a death.
    pub restarts: usize,
}

impl Pipeline<'_> {
    /// Drives `cases` with up to `processes` drivers at once, each restarted after a
    /// death, and merges what they reported.
    ///
    /// # Errors
    /// When a driver cannot be started or refuses.
    pub(super) fn drive_shares(
        &self,
        drive: &Drive<'_>,
        cases: Vec<usize>,
        processes: usize,
    ) -> Result<DriverRun> {
        let started = Instant::now();
        let restarts = AtomicUsize::new(0);
        let shares = deal(cases, processes);
        let parts: Vec<Result<DriverRun>> = std::thread::scope(|scope| {
            let handles: Vec<_> = shares
                .into_iter()
                .map(|share| {
                    let restarts = &restarts;
                    scope.spawn(move || self.drive_share(drive, share, restarts, started))
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|_| Err(anyhow!("a driver's watching thread panicked")))
                })
                .collect()
        });
        let mut merged = DriverRun {
            finished: true,
            ..DriverRun::default()
        };
        let mut printed = Vec::new();
        let mut gave_up = false;
        for part in parts {
            let mut part = part?;
            merged.outcomes.append(&mut part.outcomes);
            merged.deaths.append(&mut part.deaths);
            merged.finished &= part.finished;
            gave_up |= part.gave_up.is_some();
            printed.push(part.printed);
        }
        merged.printed = Printed::merge(printed);
        if gave_up {
            merged.gave_up = Some(GaveUp {
                deaths: merged.deaths.len(),
                restarts: drive.restarts,
            });
        }
        Ok(merged)
    }

    /// Drives one share of the cases, a fresh driver taking it up after each death.
    fn drive_share(
        &self,
        drive: &Drive<'_>,
        mut due: Vec<usize>,
        restarts: &AtomicUsize,
        started: Instant,
    ) -> Result<DriverRun> {
        let mut run = DriverRun::default();
        let mut printed = Vec::new();
        loop {
            let mut command = Command::new(drive.binary);
            command.current_dir(self.root);
            let request = Request::new(drive.stage, drive.seed, due.clone(), drive.fingerprint);
            let mut part = supervisor::supervise_since(
                command,
                &request,
                drive.limits,
                &DriverLaunch(self.launcher),
                started,
            )?;
            run.outcomes.append(&mut part.outcomes);
            printed.push(std::mem::take(&mut part.printed));
            let Some(&at) = part.deaths.keys().next() else {
                run.finished = part.finished;
                break;
            };
            run.deaths.append(&mut part.deaths);
            let dead = drive.checks.get(at);
            due.retain(|index| *index > at && drive.checks.get(*index) != dead);
            if due.is_empty() || started.elapsed() >= drive.limits.stage {
                break;
            }
            if restarts.fetch_add(1, Ordering::Relaxed) >= drive.restarts {
                run.gave_up = Some(GaveUp {
                    deaths: run.deaths.len(),
                    restarts: drive.restarts,
                });
                break;
            }
        }
        run.printed = Printed::merge(printed);
        Ok(run)
    }
}

/// `cases` dealt out to `processes` drivers in turn (none left empty).
fn deal(cases: Vec<usize>, processes: usize) -> Vec<Vec<usize>> {
    let processes = processes.clamp(1, cases.len().max(1));
    let mut shares = vec![Vec::new(); processes];
    for (rank, case) in cases.into_iter().enumerate() {
        shares[rank % processes].push(case);
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::deal;

    #[test]
    fn cases_are_dealt_in_turn_and_no_driver_is_left_idle() {
        assert_eq!(deal(vec![0, 1, 2, 3, 4], 2), [vec![0, 2, 4], vec![1, 3]]);
        assert_eq!(deal(vec![7], 4), [vec![7]]);
        assert_eq!(deal(vec![], 2), [Vec::<usize>::new()]);
    }
}
