//! `byo start NN`: make NN the current stage and show its brief.

use std::process::ExitCode;

use anyhow::{Context, Result};

use super::progress::{LastResult, Progress};
use super::workspace::Root;
use crate::report::Style;
use crate::stages;

pub(super) fn run(root: &Root, number: u8) -> Result<ExitCode> {
    let stage = stages::get(number).context("the parser only accepts stages on the ladder")?;
    let mut progress = Progress::load(root)?;
    progress.current = Some(number);
    progress.save(root)?;

    let style = Style::detect();
    let brief_path = root.stage_dir(stage).join("README.md");
    let brief = std::fs::read_to_string(&brief_path)
        .with_context(|| format!("reading the brief {}", brief_path.display()))?;
    println!("{brief}");
    println!(
        "{}",
        style.bold(&format!("You are on {}.", stages::title(number)))
    );
    let files = root.files_to_edit(stage);
    if files.is_empty() {
        println!("No todo!() left in this stage's src/: run `just test` to see where it stands.");
    } else {
        println!("Edit (each file still has a todo!()):");
        for file in files {
            println!("  {}", file.display());
        }
    }
    if number > 1 {
        println!("Earlier stages (as of their last `just test`):");
        for earlier in stages::LADDER.iter().filter(|s| s.number < number) {
            let state = match progress.results.get(&Progress::key(earlier.number)) {
                Some(LastResult::Passed) => style.good("passes"),
                Some(LastResult::Failed) => style.bad("fails"),
                Some(LastResult::DoesNotBuild) => style.bad("does not build"),
                Some(LastResult::NotStarted) => style.warn("not started"),
                None => style.dim("not tested yet"),
            };
            println!("  {}  {state}", stages::title(earlier.number));
        }
    }
    println!(
        "Then: `just test` (or `cargo byo test`) judges stages 01 to {number:02}; `just watch` \
         judges this stage again on every save; `just hint` gives a hint."
    );
    Ok(ExitCode::SUCCESS)
}
