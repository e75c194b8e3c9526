//! The registry: the grader of each stage on the ladder, with its types erased so the
//! CLI can pick one by number. Only the CLI (and tests) reach it; the harness, the report
//! and the stage graders never do (they read the data-only [`crate::ladder`]).

use crate::harness::judge::{DriverRun, StageReport, judge_run};
use crate::harness::protocol;
use crate::harness::stage::Stage;
use crate::{stage01, stage02, stage03, stage04, stage05, stage06, stage07, stage08};

pub use crate::ladder::{LADDER, StageInfo, get, title};

impl StageInfo {
    /// Whether this stage has a grader (registered in [`grader`]).
    pub fn graded(&self) -> bool {
        grader(self.number).is_some()
    }
}

/// A stage's grader with its types erased, so the CLI can pick one by number.
pub trait Grader: Sync {
    /// Judges a driver run of this stage's plan for `seed` (`only`: a replayed case).
    fn judge(&self, seed: u64, only: Option<usize>, run: &DriverRun) -> StageReport;
    /// The fingerprint of the plan for `seed`.
    fn plan_fingerprint(&self, seed: u64) -> u64;
    /// The number of cases in the plan for `seed`.
    fn plan_len(&self, seed: u64) -> usize;
    /// The check of every case of the plan for `seed`, in plan order.
    fn plan_checks(&self, seed: u64) -> Vec<&'static str>;
    /// Case `index` of the plan for `seed`, as a report describes it.
    fn describe_case(&self, seed: u64, index: usize) -> Option<String>;
}

struct Erased<S>(std::marker::PhantomData<fn() -> S>);

impl<S: Stage> Grader for Erased<S> {
    fn judge(&self, seed: u64, only: Option<usize>, run: &DriverRun) -> StageReport {
        judge_run::<S>(seed, only, run)
    }
    fn plan_fingerprint(&self, seed: u64) -> u64 {
        protocol::plan_fingerprint(&S::plan(seed))
    }
    fn plan_len(&self, seed: u64) -> usize {
        S::plan(seed).len()
    }
    fn plan_checks(&self, seed: u64) -> Vec<&'static str> {
        use crate::harness::Case as _;
        S::plan(seed).iter().map(|case| case.check().name).collect()
    }
    fn describe_case(&self, seed: u64, index: usize) -> Option<String> {
        use crate::harness::Case as _;
        S::plan(seed).get(index).map(|case| case.describe())
    }
}

const fn erased<S: Stage + 'static>() -> &'static dyn Grader {
    &Erased::<S>(std::marker::PhantomData)
}

/// The grader of stage `number`; `None` when that stage has none yet. Registering a
/// stage is one line here.
pub fn grader(number: u8) -> Option<&'static dyn Grader> {
    match number {
        1 => Some(erased::<stage01::Dataflow>()),
        2 => Some(erased::<stage02::KeyedStateStage>()),
        3 => Some(erased::<stage03::Parallelism>()),
        4 => Some(erased::<stage04::EventTime>()),
        5 => Some(erased::<stage05::Windows>()),
        6 => Some(erased::<stage06::Barriers>()),
        7 => Some(erased::<stage07::ExactlyOnceState>()),
        8 => Some(erased::<stage08::TransactionalSinkStage>()),
        _ => None,
    }
}

/// Judges a driver run of stage `number`; `None` when that stage has no grader.
pub fn judge(number: u8, seed: u64, only: Option<usize>, run: &DriverRun) -> Option<StageReport> {
    grader(number).map(|g| g.judge(seed, only, run))
}

/// The fingerprint of stage `number`'s plan for `seed` (what a driver must agree with).
pub fn plan_fingerprint(number: u8, seed: u64) -> Option<u64> {
    grader(number).map(|g| g.plan_fingerprint(seed))
}

/// The number of cases in stage `number`'s plan for `seed`.
pub fn plan_len(number: u8, seed: u64) -> Option<usize> {
    grader(number).map(|g| g.plan_len(seed))
}

/// The check of every case of stage `number`'s plan for `seed`, in plan order.
pub fn plan_checks(number: u8, seed: u64) -> Option<Vec<&'static str>> {
    grader(number).map(|g| g.plan_checks(seed))
}

/// Case `index` of stage `number`'s plan for `seed`, as a report describes it.
pub fn describe_case(number: u8, seed: u64, index: usize) -> Option<String> {
    grader(number).and_then(|g| g.describe_case(seed, index))
}
