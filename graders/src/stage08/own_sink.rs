//! A run of the learner's job with the learner's own sink behind the spy, for `byo trace
//! 08 --mine`: the grader's checks of the job run it with the grader's correct sink, so
//! a sink bug would trace as "the protocol holds"; this run shows what the learner's
//! sink made visible, and where that first departs from what a correct sink shows after
//! the same calls.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SeenLog, SpyCall, SpyLog};
use super::oracle::ModelSink;
use super::run_result::{RunResult, panic_message};

/// One cell run with the learner's own sink behind the spy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnSinkRun {
    /// How the job ended.
    pub result: RunResult,
    /// The calls on every sink the job created, in creation order.
    pub sinks: Vec<Vec<SpyCall>>,
    /// What each of the learner's sinks showed as `committed()` after each call (shorter
    /// than its calls when the sink panicked in one).
    pub visible: Vec<Vec<Vec<u32>>>,
}

/// The first call after which the learner's sink showed something else than a correct
/// sink after the same calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Departure {
    /// The step over all sinks (0-based), as a trace numbers them.
    pub step: usize,
    /// The sink (0-based, in creation order).
    pub sink: usize,
    /// The call.
    pub call: SpyCall,
    /// What a correct sink shows after it.
    pub model: Vec<u32>,
    /// What the learner's sink showed, or `None` when it panicked in the call.
    pub yours: Option<Vec<u32>>,
}

impl OwnSinkRun {
    /// Where the learner's sink first departs from the model, if anywhere.
    pub fn departure(&self) -> Option<Departure> {
        let mut step = 0;
        for (sink, calls) in self.sinks.iter().enumerate() {
            let mut model = ModelSink::default();
            let seen = self.visible.get(sink).map_or(&[][..], Vec::as_slice);
            for (n, &call) in calls.iter().enumerate() {
                model.apply(call);
                let yours = seen.get(n);
                if yours != Some(&model.committed) {
                    return Some(Departure {
                        step,
                        sink,
                        call,
                        model: model.committed.clone(),
                        yours: yours.cloned(),
                    });
                }
                step += 1;
            }
        }
        None
    }
}

/// The cell run with the learner's own sink, kept only where it shows something the
/// spied run (with the grader's correct sink) does not: where the sink departs from the
/// model, or the job ends otherwise. Elsewhere the two runs are the same run.
pub(super) fn own_sink_run<I: Implementation>(
    records: &[u32],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    spied: &RunResult,
) -> Option<OwnSinkRun> {
    let log: SpyLog = SpyLog::default();
    let seen: SeenLog = Rc::new(RefCell::new(Vec::new()));
    // Every panic is caught here, `todo!()` too: a sink not written yet must not make
    // the job's checks, which never use it, read "not started".
    let result = match panic::catch_unwind(AssertUnwindSafe(|| {
        I::run_own_sink(records, barrier_every, crash_after, commit_lag, &log, &seen)
    })) {
        Ok(Ok(output)) => RunResult::Output(output),
        Ok(Err(e)) => RunResult::Error(format!("{e:#}")),
        Err(payload) => RunResult::Panicked(panic_message(payload.as_ref())),
    };
    let run = OwnSinkRun {
        result,
        sinks: log.borrow().sinks.clone(),
        visible: seen.borrow().clone(),
    };
    (run.departure().is_some() || run.result != *spied).then_some(run)
}
