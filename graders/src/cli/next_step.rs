//! What a learner reads under a stage's verdict: the compiler's warnings on their crate
//! (a clean PASS must not hide an unused variable), and on a pass, where to go next.

use super::pipeline::StageRun;
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

/// What the counts of a report mean, said once under the reports.
pub fn units(style: &Style) -> String {
    format!(
        "{}\n",
        style.dim(
            "(a case is one input of a check, judged whole; where a stage crashes your code, \
             one case holds a run for every crash point and commit lag of that input, so a \
             case is often many runs)"
        )
    )
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
