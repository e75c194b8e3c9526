//! `byo test`: judge the learner's stages through the [pipeline](super::pipeline) and
//! report them.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use super::args::TestOptions;
use super::outcome::render_outcome;
use super::pipeline::{Batch, Pipeline, StageOutcome, StageRun, workers};
use super::progress::Progress;
use super::workspace::Root;
use super::{next_step, replay};
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::supervisor::Limits;
use crate::report::Style;
use crate::stages::{self, StageInfo};

pub(super) fn run(root: &Root, options: &TestOptions) -> Result<ExitCode> {
    let mut progress = Progress::load(root)?;
    let selected: Vec<&'static StageInfo> = if options.stages.is_empty() {
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
    let pipeline = Pipeline::new(root.path()).speaking();
    let runs: Vec<StageRun> = pipeline
        .ladder(
            &selected,
            seed,
            options.case,
            limits,
            Batch::Together,
            &|_| {},
        )
        .judge_at_once(workers())?;
    if let (Some(index), [run]) = (options.case, runs.as_slice()) {
        print!(
            "{}",
            replay::render(run.stage, seed, index, &run.outcome, &style)
        );
        print!("{}", next_step::warnings(&run.warnings, &style));
        print!("{}", next_step::case_notes(&runs, &style));
        if matches!(run.outcome, StageOutcome::Judged(_)) {
            let seconds = started.elapsed().as_secs_f64();
            println!("{}", replay::footer(run.stage, index, seconds, &style));
        }
        // A replay is not the learner's standing: progress is left as it was.
        return Ok(exit_code(run.outcome.passed()));
    }
    let mut all_passed = true;
    for run in &runs {
        let (stage, outcome) = (run.stage, &run.outcome);
        print!("{}", render_outcome(stage, outcome, &style));
        print!("{}", next_step::warnings(&run.warnings, &style));
        // The way on is only news under the stage the learner is on (the last judged).
        let last = std::ptr::eq(run, runs.last().unwrap_or(run));
        if last && outcome.passed() && stage.number >= progress.current_or_first() {
            print!("{}", next_step::next(stage, &style));
        }
        all_passed &= outcome.passed();
        // Another seed is not the learner's standing; only full default runs count.
        if options.seed.is_none() {
            progress.record_run(stage.number, outcome);
        }
    }
    progress.save(root)?;
    print!("{}", next_step::case_notes(&runs, &style));
    let passed = runs.iter().filter(|r| r.outcome.passed()).count();
    println!(
        "{}",
        style.dim(&format!(
            "{passed} of {} stage(s) pass ({:.1} s)",
            runs.len(),
            started.elapsed().as_secs_f64()
        ))
    );
    Ok(exit_code(all_passed))
}

fn exit_code(passed: bool) -> ExitCode {
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
