//! Scoring a submission's stages up the ladder: each stage built, driven and judged on its
//! own through the [pipeline](crate::cli::pipeline), every failure re-run once to tell a
//! real mistake from a nondeterministic one (both fail their check).

use std::path::Path;
use std::time::Instant;

use anyhow::{Result, bail};

use super::weights::Weights;
use crate::cli::grade::model::{CheckGrade, FailureGrade, StageGrade, Verdict};
use crate::cli::pipeline::{Alone, Batch, Pipeline, StageOutcome, Step};
use crate::harness::supervisor::Limits;
use crate::harness::{Fault, StageReport};
use crate::misconception;
use crate::report::{self, Replay, Style};
use crate::stages::{self, StageInfo};

/// Grades the stages `selected` of the submission already overlaid on the pipeline's
/// workspace, one stage built and judged after the other.
///
/// # Errors
/// When cargo cannot be run at all.
pub fn grade_stages(
    pipeline: &Pipeline<'_>,
    selected: &[&'static StageInfo],
    seed: u64,
    limits: Limits,
    weights: &Weights,
    progress: &dyn Fn(&str),
) -> Result<Vec<StageGrade>> {
    let on_step = |step: Step<'_>| match step {
        Step::Building(built) => {
            for stage in built {
                progress(&format!("{}: building", stages::title(stage.number)));
            }
        }
        Step::Judging(stage) => progress(&format!("{}: judging", stages::title(stage.number))),
    };
    let mut ladder = pipeline.ladder(selected, seed, None, limits, Batch::OneByOne, &on_step);
    let mut grades = Vec::new();
    loop {
        // A stage's time is its build, its judging and its re-runs.
        let started = Instant::now();
        let Some(run) = ladder.next() else {
            break;
        };
        let run = run?;
        // The machine failed, not the submission: it is not graded by this run, and the
        // run exits 1. Only the supervisor's own finding says so (see `StageOutcome`).
        if let StageOutcome::EnvironmentFailed(why) = &run.outcome {
            bail!("{why}");
        }
        let grade = grade_outcome(
            run.stage,
            run.outcome,
            seed,
            limits,
            weights,
            pipeline,
            run.binary.as_deref(),
        );
        grades.push(StageGrade {
            seconds: started.elapsed().as_secs_f64(),
            ..grade
        });
    }
    Ok(grades)
}

fn grade_outcome(
    stage: &StageInfo,
    outcome: StageOutcome,
    seed: u64,
    limits: Limits,
    weights: &Weights,
    pipeline: &Pipeline<'_>,
    binary: Option<&Path>,
) -> StageGrade {
    let mut grade = StageGrade {
        stage: stage.number,
        title: stages::title(stage.number),
        verdict: Verdict::NoGrader,
        score: 0.0,
        weight: weights.of(stage.number),
        checks: Vec::new(),
        errors: None,
        cases_judged: 0,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    };
    match outcome {
        StageOutcome::Judged(report) => {
            grade.cases_judged = report.judged;
            grade.printed = report.printed.clone();
            grade.checks = grade_checks(&report, seed, limits, pipeline, binary);
            for check in &mut grade.checks {
                let rule = weights.rule(stage.number, &check.name);
                (check.weight, check.gate) = (rule.weight, rule.gate);
            }
            let passed = grade.checks.iter().filter(|c| c.passed).count();
            let all_todo = grade
                .checks
                .iter()
                .filter_map(|c| c.failure.as_ref())
                .all(|f| f.anomaly == "not started");
            grade.verdict = if passed == grade.checks.len() {
                Verdict::Passed
            } else if all_todo && grade.checks.iter().any(|c| c.failure.is_some()) {
                Verdict::NotStarted
            } else {
                Verdict::Failed
            };
            // A stage not started earns nothing, even for checks its skeleton passes.
            if grade.verdict != Verdict::NotStarted {
                grade.score = weights.stage_score(&grade.checks);
            }
        }
        StageOutcome::DoesNotBuild(errors) => {
            grade.verdict = Verdict::DoesNotBuild;
            grade.errors = Some(errors);
        }
        StageOutcome::Blocked(earlier) => {
            grade.verdict = Verdict::Blocked;
            grade.errors = Some(format!(
                "stage {earlier:02} does not build, and this stage depends on it"
            ));
        }
        StageOutcome::Undriven(why) => {
            grade.verdict = Verdict::NotJudged;
            grade.errors = Some(why);
        }
        StageOutcome::Ungraded | StageOutcome::EnvironmentFailed(_) => grade.weight = 0.0,
    }
    grade
}

/// Each check's verdict. A check passes only when every case of it passed; a failure is
/// re-run alone, and one that does not repeat the same way is reported as nondeterministic
/// and fails the check all the same.
fn grade_checks(
    report: &StageReport,
    seed: u64,
    limits: Limits,
    pipeline: &Pipeline<'_>,
    binary: Option<&Path>,
) -> Vec<CheckGrade> {
    let style = Style::plain();
    let replay = Replay::default();
    report
        .checks
        .iter()
        .map(|check| {
            let complete = check.judged == check.planned;
            let Some(failure) = &check.first_failure else {
                return CheckGrade {
                    name: check.name.clone(),
                    passed: complete,
                    failure: None,
                    not_reproduced: None,
                    weight: 1.0,
                    gate: false,
                };
            };
            // Not started is not flaky: nothing to re-run. Too slow is the stage's whole
            // run: a case re-run alone would only show it fast, and would spend the time
            // the budget has just refused.
            let rerun = !matches!(
                failure.fault,
                Fault::NotStarted { .. } | Fault::TooSlow { .. }
            );
            let alone = binary
                .filter(|_| rerun)
                .and_then(|binary| pipeline.alone(binary, report.stage, seed, failure, limits));
            // Not re-run, or the re-run could not be driven at all: the first verdict
            // stands.
            let reproduced = matches!(alone, None | Some(Alone::Repeats));
            let single = StageReport {
                checks: vec![check.clone()],
                printed: Vec::new(),
                gave_up: None,
                ..report.clone()
            };
            let mut detail = report::render(&single, &style, &replay)
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n");
            // The briefs require the same result on every run: a failure that does not
            // repeat is a failure all the same (a hidden `static` shared between cases,
            // randomness, or code that tells a re-run from a full run).
            let nondeterministic = (!reproduced).then(|| {
                format!(
                    "case {} failed ({}) in the full run but not the same way when re-run \
                     alone: the result depends on something other than the case",
                    failure.index,
                    failure.fault.kind()
                )
            });
            if let Some(why) = &nondeterministic {
                detail.push_str(&format!("\n    nondeterministic: {why}"));
            }
            CheckGrade {
                name: check.name.clone(),
                passed: false,
                failure: Some(FailureGrade {
                    case_index: failure.index,
                    case: failure.case.clone(),
                    anomaly: if reproduced {
                        failure.fault.kind().to_owned()
                    } else {
                        "nondeterministic".to_owned()
                    },
                    detail,
                    misconception: misconception::likely(&single).map(|c| c.title.to_owned()),
                }),
                not_reproduced: nondeterministic,
                weight: 1.0,
                gate: false,
            }
        })
        .collect()
}
