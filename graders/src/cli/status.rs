//! `byo status`: where every stage stands, from the last `byo test`.

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
            Some(LastResult::NotStarted) | None => style.warn(&format!("{:<16}", "not started")),
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
    Ok(ExitCode::SUCCESS)
}
