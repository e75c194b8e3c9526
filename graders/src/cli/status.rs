//! `byo status`: where every stage stands, from its last full `byo test`, and which
//! stages have a misconception card waiting for `byo hint`.

use std::process::ExitCode;

use anyhow::Result;

use super::progress::{LastResult, Progress};
use super::workspace::Root;
use crate::report::Style;
use crate::stages;

pub(super) fn run(root: &Root) -> Result<ExitCode> {
    let progress = Progress::load(root)?;
    let style = Style::detect();
    println!(
        "{}",
        style.bold(&format!(
            "{:<34} {:<16} {}",
            "stage", "last result", "hints used"
        ))
    );
    for stage in &stages::LADDER {
        let key = Progress::key(stage.number);
        let result = match progress.results.get(&key) {
            Some(LastResult::Passed) => style.good(&format!("{:<16}", "pass")),
            Some(LastResult::Failed) => style.bad(&format!("{:<16}", "fail")),
            Some(LastResult::DoesNotBuild) => style.bad(&format!("{:<16}", "does not build")),
            Some(LastResult::NotStarted) => style.warn(&format!("{:<16}", "not started")),
            // The word `byo start` uses for the same state.
            None => style.dim(&format!("{:<16}", "not tested yet")),
        };
        let hints = progress.hints.get(&key).copied().unwrap_or(0);
        let marker = if progress.current == Some(stage.number) {
            "  <- current"
        } else {
            ""
        };
        println!(
            "{:<34} {result} {hints}/3{marker}",
            stages::title(stage.number)
        );
    }
    for stage in &stages::LADDER {
        if progress.card_to_offer(stage.number).is_some() {
            let n = stage.number;
            println!(
                "{}",
                style.warn(&format!(
                    "A misconception card from your last test of stage {n:02} is waiting: \
                     `just hint {n:02}` (or `cargo byo hint {n:02}`) shows it before the next hint."
                ))
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
