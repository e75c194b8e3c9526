//! The judge side: turns a driver's outcomes into a stage report, check by check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::case::{Case, Check, Failure};
use super::printed::{Printed, PrintedLine};
use super::{protocol::Outcome, stage::Stage};

/// Everything a driver run produced, as the judge received it.
#[derive(Debug, Clone, Default)]
pub struct DriverRun {
    /// The outcome of every case that ended, by plan index.
    pub outcomes: BTreeMap<usize, Outcome<Box<RawValue>>>,
    /// The cases a driver stopped abnormally in (or, when no case was running, before
    /// the case next due), and how. A fresh driver goes on after each, up to a bound.
    pub deaths: BTreeMap<usize, Fault>,
    /// The driver said it ran every requested case.
    pub finished: bool,
    /// What the implementation printed (bounded), each line with its case and run.
    pub printed: Printed,
    /// Judging stopped before every case was run: the driver kept dying.
    pub gave_up: Option<GaveUp>,
}

/// Judging stopped early: the driver died again after the most restarts a stage is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GaveUp {
    /// How many times the driver died.
    pub deaths: usize,
    /// How many times a stage's drivers may be started again after a death.
    pub restarts: usize,
}

/// The clock a stage's budget ran out on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Clock {
    /// Wall time: the cases together took too long, sleeps and waits included.
    #[default]
    Wall,
    /// CPU time: the driver's threads together computed too long.
    Cpu,
}

/// Why a case did not pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// The implementation returned, but not what the laws demand.
    Wrong {
        /// What was expected.
        expected: String,
        /// What came out.
        actual: String,
        /// The first step that went wrong, when known.
        first_wrong_step: Option<String>,
        /// Records missing from a multiset.
        missing: Vec<String>,
        /// Records duplicated or invented in a multiset.
        extra: Vec<String>,
        /// The id of the brief's requirement broken (`03-R7`), when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        requirement: Option<String>,
    },
    /// A `todo!()` was reached: this part is not written yet.
    NotStarted {
        /// Where the `todo!()` is.
        location: Option<String>,
    },
    /// The implementation panicked.
    Panicked {
        /// The panic message.
        message: String,
        /// Where it panicked.
        location: Option<String>,
    },
    /// The case ran longer than the time limit and the driver was killed.
    TimedOut {
        /// The limit, in seconds.
        seconds: u64,
    },
    /// The stage's cases together ran past the stage's time budget (in `byo grade`, set
    /// from the reference's own time on the same machine) and the driver was killed: the
    /// cases not reached are not judged.
    TooSlow {
        /// The budget, in seconds.
        seconds: u64,
        /// The clock that ran past it.
        #[serde(default)]
        clock: Clock,
    },
    /// The process overflowed its stack (unbounded recursion, usually).
    StackOverflow,
    /// The process exited before the plan was done (e.g. `std::process::exit`).
    ExitedEarly {
        /// Its exit code, if it had one.
        code: Option<i32>,
    },
    /// The process was killed by a signal.
    Killed {
        /// The signal number.
        signal: i32,
    },
    /// The driver's output could not be read as an observation of this stage.
    Unreadable(String),
    /// A protocol line the judge did not ask for (a forged `Refused`, a second answer).
    ProtocolViolation(String),
}

impl Fault {
    /// The kind of fault in a word or two, for gradebooks and cohort tables.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Wrong { .. } => "wrong result",
            Fault::NotStarted { .. } => "not started",
            Fault::Panicked { .. } => "panic",
            Fault::TimedOut { .. } => "time-out",
            Fault::TooSlow { .. } => "too slow",
            Fault::StackOverflow => "stack overflow",
            Fault::ExitedEarly { .. } => "early exit",
            Fault::Killed { .. } => "killed by a signal",
            Fault::Unreadable(_) => "unreadable observation",
            Fault::ProtocolViolation(_) => "protocol violation",
        }
    }
}

impl From<Failure> for Fault {
    fn from(f: Failure) -> Self {
        Fault::Wrong {
            expected: f.expected,
            actual: f.actual,
            first_wrong_step: f.first_wrong_step,
            missing: f.missing,
            extra: f.extra,
            requirement: f.requirement.map(str::to_owned),
        }
    }
}

/// The smallest failing case of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseFailure {
    /// The case's index in the plan (what `--case` replays).
    pub index: usize,
    /// The case in the stage's own terms.
    pub case: String,
    /// What went wrong.
    pub fault: Fault,
}

/// The verdict on one check of a stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    /// The check's name.
    pub name: String,
    /// The law it checks.
    pub law: String,
    /// Cases of this check that were judged.
    pub judged: usize,
    /// Cases of this check in the plan.
    pub planned: usize,
    /// The first (smallest) failing case, if any.
    pub first_failure: Option<CaseFailure>,
}

/// Where a stage stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StageStatus {
    /// Every case of every check passed.
    Passed,
    /// Every failure is a `todo!()`: the learner has not started (this part of) the stage.
    NotStarted,
    /// Some check failed.
    Failed,
}

/// The verdict on one stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageReport {
    /// The stage number.
    pub stage: u8,
    /// The seed of the plan.
    pub seed: u64,
    /// Cases judged, across checks.
    pub judged: usize,
    /// Cases in the plan (or in the replay).
    pub planned: usize,
    /// One report per check, in plan order.
    pub checks: Vec<CheckReport>,
    /// What the implementation printed (the first and last lines), each line with the
    /// case and the run it came from.
    pub printed: Vec<PrintedLine>,
    /// Judging stopped before every case was run, the driver dying again and again.
    #[serde(default)]
    pub gave_up: Option<GaveUp>,
}

impl StageReport {
    /// Passed, not started, or failed.
    pub fn status(&self) -> StageStatus {
        let failures: Vec<&Fault> = self
            .checks
            .iter()
            .filter_map(|c| c.first_failure.as_ref().map(|f| &f.fault))
            .collect();
        if failures.is_empty() && self.judged == self.planned {
            StageStatus::Passed
        } else if !failures.is_empty()
            && failures
                .iter()
                .all(|f| matches!(f, Fault::NotStarted { .. }))
        {
            StageStatus::NotStarted
        } else {
            StageStatus::Failed
        }
    }

    /// The failing checks' first failures, smallest plan index first.
    pub fn failures(&self) -> Vec<(&CheckReport, &CaseFailure)> {
        let mut failures: Vec<_> = self
            .checks
            .iter()
            .filter_map(|c| c.first_failure.as_ref().map(|f| (c, f)))
            .collect();
        failures.sort_by_key(|(_, f)| f.index);
        failures
    }
}

/// Judges a driver run against the plan of stage `S` for `seed`. With `only`, just that
/// case was requested.
///
/// A death fails its case, and its check's later cases are not judged: they cannot
/// change the check's smallest failing case, and a fresh driver skips them (so whether
/// one driver ran the plan or several shared it, the same cases count as judged).
pub fn judge_run<S: Stage>(seed: u64, only: Option<usize>, run: &DriverRun) -> StageReport {
    let plan = S::plan(seed);
    let mut first_death: Vec<(Check, usize)> = Vec::new();
    for &at in run.deaths.keys() {
        if let Some(case) = plan.get(at)
            && !first_death.iter().any(|(check, _)| *check == case.check())
        {
            first_death.push((case.check(), at));
        }
    }
    let mut checks: Vec<(Check, CheckReport)> = Vec::new();
    let mut judged = 0;
    let mut planned = 0;
    for (index, case) in plan.iter().enumerate() {
        if only.is_some_and(|only| only != index) {
            continue;
        }
        planned += 1;
        let check = case.check();
        if !checks.iter().any(|(c, _)| *c == check) {
            let (name, law) = (check.name.to_owned(), check.law.to_owned());
            let report = CheckReport {
                name,
                law,
                judged: 0,
                planned: 0,
                first_failure: None,
            };
            checks.push((check, report));
        }
        let Some((_, report)) = checks.iter_mut().find(|(c, _)| *c == check) else {
            continue;
        };
        report.planned += 1;
        let after_death = first_death
            .iter()
            .any(|(dead, at)| *dead == check && index > *at);
        let fault = match run.outcomes.get(&index).filter(|_| !after_death) {
            Some(outcome) => {
                judged += 1;
                report.judged += 1;
                judge_outcome::<S>(case, outcome)
            }
            None => run.deaths.get(&index).cloned(),
        };
        if let (Some(fault), None) = (fault, &report.first_failure) {
            report.first_failure = Some(CaseFailure {
                index,
                case: case.describe(),
                fault,
            });
        }
    }
    StageReport {
        stage: S::NUMBER,
        seed,
        judged,
        planned,
        checks: checks.into_iter().map(|(_, r)| r).collect(),
        printed: run.printed.lines(),
        gave_up: run.gave_up,
    }
}

/// What is wrong with the outcome of one case, if anything.
pub fn judge_outcome<S: Stage>(case: &S::Case, outcome: &Outcome<Box<RawValue>>) -> Option<Fault> {
    match outcome {
        Outcome::Returned(raw) => match serde_json::from_str::<S::Observation>(raw.get()) {
            Ok(observation) => S::judge(case, &observation).err().map(Fault::from),
            Err(e) => Some(Fault::Unreadable(e.to_string())),
        },
        Outcome::Panicked { message, location } if message.starts_with("not yet implemented") => {
            Some(Fault::NotStarted {
                location: location.clone(),
            })
        }
        Outcome::Panicked { message, location } => Some(Fault::Panicked {
            message: message.clone(),
            location: location.clone(),
        }),
    }
}
