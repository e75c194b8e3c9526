//! Judging the stages of a ladder at once, one driver per core: the stages are
//! independent once built (each driver is its own process, each judge works on its own
//! observations), so the verdicts are the ones judging them in turn gives, and they
//! are returned in ladder order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Result;

use super::ladder::{Ladder, Prepared, Step};
use super::{StageOutcome, StageRun};

impl Ladder<'_, '_> {
    /// Every stage still to come, built as the ladder builds them, then judged with up to
    /// `workers` at a time (the heaviest, latest stages first, so the lightest fill in).
    ///
    /// # Errors
    /// When cargo cannot be run.
    pub fn judge_at_once(mut self, workers: usize) -> Result<Vec<StageRun>> {
        let mut prepared = Vec::new();
        while let Some(stage) = self.selected.get(self.next).copied() {
            self.next += 1;
            prepared.push((stage, self.prepare(stage)?));
        }
        let mut ready = Vec::new();
        let mut runs: Vec<Option<StageRun>> = Vec::new();
        for (index, (stage, prepared)) in prepared.into_iter().enumerate() {
            match prepared {
                Prepared::Done(run) => runs.push(Some(run)),
                Prepared::Ready { binary, warnings } => {
                    (self.on_step)(Step::Judging(stage));
                    ready.push((index, stage, binary, warnings));
                    runs.push(None);
                }
            }
        }
        ready.reverse();
        let ready: Vec<Mutex<Option<_>>> = ready.into_iter().map(|r| Mutex::new(Some(r))).collect();
        let judged: Mutex<Vec<(usize, StageRun)>> = Mutex::new(Vec::new());
        let taken = AtomicUsize::new(0);
        let judging = self.judging();
        std::thread::scope(|scope| {
            for _ in 0..workers.max(1).min(ready.len()) {
                scope.spawn(|| {
                    while let Some(slot) = ready.get(taken.fetch_add(1, Ordering::Relaxed)) {
                        let job = slot
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .take();
                        if let Some((index, stage, binary, warnings)) = job {
                            let run = judging.judge(stage, binary, warnings);
                            judged
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .push((index, run));
                        }
                    }
                });
            }
        });
        let judged = judged
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (index, run) in judged {
            runs[index] = Some(run);
        }
        Ok(runs
            .into_iter()
            .zip(self.selected)
            .map(|(run, stage)| {
                run.unwrap_or_else(|| StageRun {
                    stage,
                    outcome: StageOutcome::Undriven("its judging thread ended early".to_owned()),
                    binary: None,
                    warnings: Vec::new(),
                })
            })
            .collect())
    }
}

/// How many stages to judge at once: `BYO_JUDGE_WORKERS` when set to a positive number
/// (1 judges in turn, on a machine shared with others), else one per core.
pub fn workers() -> usize {
    std::env::var("BYO_JUDGE_WORKERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
}
