//! The ladder: every stage's number, slug and title, and the judge of each.

use crate::harness::judge::{DriverRun, judge_run};
use crate::harness::{Stage, StageReport};
use crate::{stage01, stage02, stage03, stage04, stage05, stage06, stage07, stage08};

/// One rung of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageInfo {
    /// 1..=8.
    pub number: u8,
    /// The folder suffix, e.g. `dataflow` in `stages/01-dataflow`.
    pub slug: &'static str,
    /// What the stage is about.
    pub title: &'static str,
}

/// Every stage of the kata, in order.
pub const LADDER: [StageInfo; 8] = [
    info(1, "dataflow", "sources, operators, sinks"),
    info(2, "keyed-state", "keyed streams and per-key state"),
    info(3, "parallelism", "key groups, partitioning, rescaling"),
    info(4, "event-time", "timestamps and watermarks"),
    info(5, "windows", "event-time windows fired by watermarks"),
    info(6, "barriers", "checkpoint barriers and alignment"),
    info(
        7,
        "exactly-once-state",
        "checkpoint, crash, restore, replay",
    ),
    info(
        8,
        "transactional-sink",
        "two-phase commit, end-to-end exactly-once",
    ),
];

const fn info(number: u8, slug: &'static str, title: &'static str) -> StageInfo {
    StageInfo {
        number,
        slug,
        title,
    }
}

impl StageInfo {
    /// Whether this stage has a grader (registered in [`grader`]).
    pub fn graded(&self) -> bool {
        grader(self.number).is_some()
    }

    /// `NN-slug`, the folder name under `stages/`, `solutions/`.
    pub fn folder(&self) -> String {
        format!("{:02}-{}", self.number, self.slug)
    }

    /// The learner crate's package name.
    pub fn learner_crate(&self) -> String {
        format!("stage{:02}", self.number)
    }

    /// The reference crate's package name.
    pub fn reference_crate(&self) -> String {
        format!("solution{:02}", self.number)
    }
}

/// The stage with this number.
pub fn get(number: u8) -> Option<&'static StageInfo> {
    LADDER.iter().find(|s| s.number == number)
}

/// `stage 01 · dataflow` (or `stage NN` for a number off the ladder).
pub fn title(number: u8) -> String {
    match get(number) {
        Some(stage) => format!("stage {:02} · {}", stage.number, stage.slug),
        None => format!("stage {number:02}"),
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
}

struct Erased<S>(std::marker::PhantomData<fn() -> S>);

impl<S: Stage> Grader for Erased<S> {
    fn judge(&self, seed: u64, only: Option<usize>, run: &DriverRun) -> StageReport {
        judge_run::<S>(seed, only, run)
    }
    fn plan_fingerprint(&self, seed: u64) -> u64 {
        crate::harness::protocol::plan_fingerprint(&S::plan(seed))
    }
    fn plan_len(&self, seed: u64) -> usize {
        S::plan(seed).len()
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
