//! What a learner reads under a stage's verdict: the compiler's warnings on their crate
//! (a clean PASS must not hide an unused variable), and on a pass, where to go next.

use super::pipeline::{StageOutcome, StageRun};
use crate::harness::StageStatus;
use crate::report::Style;
use crate::stages::{self, StageInfo};

/// How many warnings are shown in full; the rest are counted.
const SHOWN: usize = 3;

/// The lines under `run`'s verdict: its warnings, then on a pass the next step.
pub fn after(stage: &StageInfo, run: &StageRun, style: &Style) -> String {
    let mut text = warnings(&run.warnings, style);
    if run.outcome.passed() {
        text.push_str(&next(stage, style));
    }
    text
}

/// The count of `warnings` and the first few, indented under a verdict.
pub fn warnings(warnings: &[String], style: &Style) -> String {
    if warnings.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "  {}\n",
        style.warn(&format!(
            "{} compiler warning(s) in your crate{}:",
            warnings.len(),
            if warnings.len() > SHOWN {
                format!(" (the first {SHOWN})")
            } else {
                String::new()
            }
        ))
    );
    for warning in warnings.iter().take(SHOWN) {
        text.extend(warning.lines().map(|l| format!("    {l}\n")));
    }
    text
}

/// `next: just start 0N`, or after the last stage, the reference read-through.
pub fn next(stage: &StageInfo, style: &Style) -> String {
    let line = match stages::get(stage.number + 1) {
        Some(next) => format!(
            "next: just start {:02}  ({})",
            next.number,
            stages::title(next.number)
        ),
        // A student template (`byo template`) ships no references to point at.
        None if !references_shipped() => "next: every stage passes: the kata is done. \
             `just trace 08 --mine` replays any schedule of your sink beside the model's"
            .to_owned(),
        None => format!(
            "next: every stage passes. Read the references of the stages you wrote, in \
             order (solutions/01-dataflow to solutions/{}), beside your own: the guide is \
             solutions/README.md",
            stage.folder()
        ),
    };
    format!("{}\n", style.bold(&line))
}

/// Whether this kata has its references (`solutions/`), as the instructor's does.
fn references_shipped() -> bool {
    super::workspace::Root::locate().is_ok_and(|root| root.path().join("solutions").is_dir())
}

/// What a case is in `stage`, where a count of cases is not a count of runs: said
/// under a failing report only (a pass needs no reading), and only for the stages whose
/// cases crash the code at a commit lag.
fn case_note(stage: u8) -> Option<&'static str> {
    match stage {
        7 => Some(
            "(stage 07: a case that runs your job is one run, at the one barrier_every, crash \
             point and commit_lag it names)",
        ),
        8 => Some(
            "(stage 08: a case of `exactly-once` or `protocol` is one input and one \
             barrier_every, run at every crash point and every commit lag, so one case is \
             many runs)",
        ),
        _ => None,
    }
}

/// The notes on what a case is, once each, for the stages of `runs` whose report fails.
pub fn case_notes(runs: &[StageRun], style: &Style) -> String {
    let mut text = String::new();
    for run in runs {
        let failed =
            matches!(&run.outcome, StageOutcome::Judged(r) if r.status() == StageStatus::Failed);
        if let Some(note) = case_note(run.stage.number).filter(|_| failed) {
            text.push_str(&format!("{}\n", style.dim(note)));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_points_at_the_next_stage_and_the_last_at_the_references() {
        let style = Style::plain();
        assert!(next(stages::get(1).unwrap(), &style).starts_with("next: just start 02"));
        let last = next(stages::LADDER.last().unwrap(), &style);
        // A student template (`byo template`) has no references to point at.
        if references_shipped() {
            assert!(last.contains("solutions/01-dataflow"), "{last}");
        } else {
            assert!(last.contains("the kata is done") && !last.contains("solutions"));
        }
    }

    /// A run of `stage` whose one check failed (`failing`) or passed.
    fn run(stage: u8, failing: bool) -> StageRun {
        use crate::harness::{CaseFailure, CheckReport, Fault, StageReport};
        let failure = failing.then(|| CaseFailure {
            index: 0,
            case: "a case".to_owned(),
            fault: Fault::Unreadable("x".to_owned()),
        });
        let report = StageReport {
            stage,
            seed: 0,
            judged: 1,
            planned: 1,
            checks: vec![CheckReport {
                name: "c".to_owned(),
                law: String::new(),
                judged: 1,
                planned: 1,
                first_failure: failure,
            }],
            printed: Vec::new(),
            gave_up: None,
        };
        StageRun {
            stage: stages::get(stage).unwrap(),
            outcome: StageOutcome::Judged(report),
            binary: None,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn what_a_case_is_is_said_under_a_failing_report_of_a_stage_that_crashes_at_a_lag() {
        let style = Style::plain();
        // A pass, and stages whose cases are one run each of one crash point: nothing.
        for runs in [
            vec![run(8, false)],
            vec![run(1, true), run(2, true), run(5, true)],
        ] {
            assert_eq!(case_notes(&runs, &style), "", "{runs:?}");
        }
        let seven = case_notes(&[run(7, true)], &style);
        assert!(
            seven.starts_with("(stage 07: a case that runs your job is one run"),
            "{seven}"
        );
        assert!(
            !seven.contains("every crash point"),
            "a 07 case is one run: {seven}"
        );
        let eight = case_notes(&[run(7, false), run(8, true)], &style);
        assert!(
            eight.starts_with("(stage 08: a case of `exactly-once` or `protocol` is one input")
                && eight.contains("every crash point and every commit lag"),
            "{eight}"
        );
    }

    #[test]
    fn warnings_are_counted_and_the_first_few_shown() {
        let style = Style::plain();
        let five: Vec<String> = (1..=5).map(|i| format!("warning: unused {i}")).collect();
        let text = warnings(&five, &style);
        assert!(text.starts_with("  5 compiler warning(s) in your crate (the first 3):"));
        assert!(
            text.contains("unused 3") && !text.contains("unused 4"),
            "{text}"
        );
        assert_eq!(warnings(&[], &style), "");
    }
}
