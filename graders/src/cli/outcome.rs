//! How one stage's outcome reads to the learner: its report, or why it has none (it does
//! not build, an earlier stage blocks it, it could not be judged, it has no grader).

use super::pipeline::StageOutcome;
use crate::report::{self, Replay, Style};
use crate::stages::{self, StageInfo};

/// The report of one stage as the learner reads it.
pub fn render_outcome(stage: &StageInfo, outcome: &StageOutcome, style: &Style) -> String {
    let title = format!("{:<34}", stages::title(stage.number));
    match outcome {
        StageOutcome::Judged(report) => report::render(report, style, &Replay::default()),
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
        StageOutcome::Undriven(why) | StageOutcome::EnvironmentFailed(why) => {
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
