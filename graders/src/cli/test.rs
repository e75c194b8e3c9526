//! `byo test`: build, drive, judge and report the learner's stages.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::Result;

use super::args::TestOptions;
use super::build::{self, Built, Side};
use super::progress::{LastResult, Progress};
use super::workspace::Root;
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::protocol::Request;
use crate::harness::supervisor::{self, Limits};
use crate::harness::{StageReport, StageStatus};
use crate::report::{self, Replay, Style};
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
    /// Its grade binary could not be driven (e.g. it refused the request).
    Undriven(String),
    /// No grader exists for it yet.
    Ungraded,
}

impl StageOutcome {
    /// What `byo status` remembers.
    pub fn last_result(&self) -> Option<LastResult> {
        match self {
            StageOutcome::Judged(report) => Some(match report.status() {
                StageStatus::Passed => LastResult::Passed,
                StageStatus::NotStarted => LastResult::NotStarted,
                StageStatus::Failed => LastResult::Failed,
            }),
            StageOutcome::DoesNotBuild(_) | StageOutcome::Blocked(_) => {
                Some(LastResult::DoesNotBuild)
            }
            StageOutcome::Undriven(_) => Some(LastResult::Failed),
            StageOutcome::Ungraded => None,
        }
    }

    /// Whether the stage passed.
    pub fn passed(&self) -> bool {
        matches!(self, StageOutcome::Judged(r) if r.status() == StageStatus::Passed)
    }
}

pub(super) fn run(root: &Root, options: &TestOptions) -> Result<ExitCode> {
    let mut progress = Progress::load(root)?;
    let selected: Vec<&StageInfo> = if options.stages.is_empty() {
        let current = progress.current_or_first();
        stages::LADDER
            .iter()
            .filter(|s| s.number <= current)
            .collect()
    } else {
        options
            .stages
            .iter()
            .filter_map(|n| stages::get(*n))
            .collect()
    };
    let seed = options.seed.unwrap_or(DEFAULT_SEED);
    let mut limits = Limits::default();
    if let Some(timeout) = options.timeout {
        limits.case = timeout;
    }
    let style = Style::detect();
    let started = Instant::now();
    let outcomes = judge_stages(
        root.path(),
        None,
        &selected,
        Side::Learner,
        seed,
        options.case,
        limits,
    )?;
    let mut all_passed = true;
    for (stage, outcome) in selected.iter().zip(&outcomes) {
        print!(
            "{}",
            render_outcome(stage, outcome, &style, options.case.is_some())
        );
        all_passed &= outcome.passed();
        // A replay or another seed is not the learner's standing; only full default runs count.
        if options.case.is_none()
            && options.seed.is_none()
            && let Some(result) = outcome.last_result()
        {
            progress.results.insert(Progress::key(stage.number), result);
        }
    }
    progress.save(root)?;
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    println!(
        "{}",
        style.dim(&format!(
            "{passed} of {} stage(s) pass ({:.1} s)",
            outcomes.len(),
            started.elapsed().as_secs_f64()
        ))
    );
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Builds and judges `stages` of the crates of `side` under `root`, in order. A stage
/// whose build fails blocks every later one (each depends on the one before).
///
/// # Errors
/// When cargo cannot be run.
pub fn judge_stages(
    root: &Path,
    target_dir: Option<&Path>,
    selected: &[&StageInfo],
    side: Side,
    seed: u64,
    only: Option<usize>,
    limits: Limits,
) -> Result<Vec<StageOutcome>> {
    let graded: Vec<&StageInfo> = selected.iter().copied().filter(|s| s.graded()).collect();
    let mut built = build::build(root, target_dir, &graded, side, &[])?;
    let mut broken: Option<u8> = None;
    let mut outcomes = Vec::new();
    for stage in selected {
        let outcome = match (stage.graded(), built.remove(&stage.number), broken) {
            (false, _, _) => StageOutcome::Ungraded,
            // Its own errors would be the earlier stage's errors again: name the cause.
            (true, _, Some(earlier)) => StageOutcome::Blocked(earlier),
            (true, Some(Built::Failed(errors)), None) => {
                broken = Some(stage.number);
                StageOutcome::DoesNotBuild(errors)
            }
            (true, Some(Built::Binary(binary)), None) => {
                drive_and_judge(root, &binary, stage.number, seed, only, limits)
            }
            (true, None, None) => {
                StageOutcome::DoesNotBuild("no grade binary was built".to_owned())
            }
        };
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Drives the grade binary `binary` for `stage` and judges what it observed.
pub fn drive_and_judge(
    root: &Path,
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
    let mut command = Command::new(binary);
    command.current_dir(root);
    let Some(plan) = stages::plan_fingerprint(stage, seed) else {
        return StageOutcome::Ungraded;
    };
    let request = Request::new(stage, seed, only, plan);
    match supervisor::supervise(command, request, limits) {
        Ok(run) => match stages::judge(stage, seed, only, &run) {
            Some(report) => StageOutcome::Judged(report),
            None => StageOutcome::Ungraded,
        },
        Err(e) => StageOutcome::Undriven(format!("{e:#}")),
    }
}

/// The report of one stage as the learner reads it.
pub fn render_outcome(
    stage: &StageInfo,
    outcome: &StageOutcome,
    style: &Style,
    replay: bool,
) -> String {
    let title = format!("{:<34}", stages::title(stage.number));
    match outcome {
        StageOutcome::Judged(report) => {
            let mut text = report::render(report, style, &Replay::default());
            if replay {
                text.push_str(&format!("  {}\n", style.dim("(one case replayed)")));
            }
            text
        }
        StageOutcome::DoesNotBuild(errors) => {
            let indented: String = errors.lines().map(|l| format!("    {l}\n")).collect();
            format!(
                "{} {}  the stage does not compile:\n{indented}",
                style.bold(&title),
                style.bad("DOES NOT BUILD")
            )
        }
        StageOutcome::Blocked(earlier) => format!(
            "{} {}  stage {earlier:02} does not build, and this stage depends on it\n",
            style.bold(&title),
            style.bad("BLOCKED")
        ),
        StageOutcome::Undriven(why) => {
            format!(
                "{} {}  {why}\n",
                style.bold(&title),
                style.bad("NOT JUDGED")
            )
        }
        StageOutcome::Ungraded => format!(
            "{} {}  this stage has no grader yet\n",
            style.bold(&title),
            style.warn("NO GRADER")
        ),
    }
}
