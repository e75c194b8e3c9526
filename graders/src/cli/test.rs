//! `byo test`: judge the learner's stages through the [pipeline](super::pipeline) and
//! report them.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use super::args::TestOptions;
use super::outcome::render_outcome;
use super::pipeline::{Alone, Batch, Pipeline, StageOutcome, StageRun, workers};
use super::progress::Progress;
use super::workspace::Root;
use super::{next_step, replay};
use crate::harness::Fault;
use crate::harness::driver::DEFAULT_SEED;
use crate::harness::supervisor::Limits;
use crate::report::{Replay, Style};
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
        print!("{}", alone_notes(&pipeline, run, seed, limits, &style));
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

/// Each failing check's smallest case run again alone, and a note on those that do not
/// fail the same way there: the report shows a case that `--case` would not reproduce,
/// and the learner is told why before chasing it.
fn alone_notes(
    pipeline: &Pipeline<'_>,
    run: &StageRun,
    seed: u64,
    limits: Limits,
    style: &Style,
) -> String {
    let (StageOutcome::Judged(report), Some(binary)) = (&run.outcome, &run.binary) else {
        return String::new();
    };
    let limits = limits.for_stage(run.stage.number);
    let mut unrepeated = Vec::new();
    for check in &report.checks {
        let Some(failure) = &check.first_failure else {
            continue;
        };
        // A death, a time-out or a `todo!()` says nothing more when repeated, and would
        // cost its time again.
        if !matches!(failure.fault, Fault::Wrong { .. } | Fault::Panicked { .. }) {
            continue;
        }
        if let Some(alone) = pipeline.alone(binary, run.stage.number, seed, failure, limits) {
            unrepeated.push((check.name.as_str(), failure.index, alone));
        }
    }
    alone_note(run.stage.number, seed, &unrepeated, style)
}

/// The note on the failing cases of `stage` (under `seed`) run again alone, each with its
/// check and how it fared; nothing when each failed the same way.
fn alone_note(stage: u8, seed: u64, alone: &[(&str, usize, Alone)], style: &Style) -> String {
    let mut lines = Vec::new();
    for &(check, index, alone) in alone {
        let how = match alone {
            Alone::Passes => "passes".to_owned(),
            Alone::Differs(kind) => format!("fails another way ({kind})"),
            Alone::Repeats => continue,
        };
        let command = Replay::default().command(stage, seed, index);
        lines.push(format!("    `{check}` case {index} {how}: {command}\n"));
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "  {} run again alone, {}:\n{}    so a result depends on something besides its case: \
         what the cases before it left in a `static` or a `thread_local!`, or an order that \
         changes from run to run (a `HashMap`'s, a random one). Each case builds its own \
         instances, and the same calls must give the same result on every run.\n",
        style.warn("!"),
        if lines.len() == 1 {
            "this failure does not repeat"
        } else {
            "these failures do not repeat"
        },
        lines.concat(),
    )
}

fn exit_code(passed: bool) -> ExitCode {
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_that_do_not_repeat_alone_are_told_with_their_replay_commands() {
        let style = Style::plain();
        let alone = [
            ("chain", 915, Alone::Repeats),
            ("crash", 17, Alone::Passes),
            ("contract", 911, Alone::Differs("panic")),
        ];
        let note = alone_note(3, DEFAULT_SEED, &alone, &style);
        assert!(note.contains("these failures do not repeat"), "{note}");
        assert!(
            note.contains("`crash` case 17 passes: cargo byo test 03 --case 17\n"),
            "{note}"
        );
        assert!(
            note.contains(
                "`contract` case 911 fails another way (panic): cargo byo test 03 --case 911"
            ),
            "{note}"
        );
        assert!(!note.contains("chain"), "{note}");
        assert!(note.contains("`thread_local!`"), "{note}");
        let note = alone_note(3, 7, &alone[1..2], &style);
        assert!(note.contains("this failure does not repeat"), "{note}");
        assert!(
            note.contains("cargo byo test 03 --seed 7 --case 17"),
            "{note}"
        );
        assert_eq!(alone_note(3, 7, &alone[..1], &style), "");
    }
}
