//! `byo hint [NN]`: reveal the next hint of a stage, and remember it; first, once, the
//! misconception card the stage's last `byo test` showed.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use super::progress::Progress;
use super::workspace::Root;
use crate::report::{Style, render_card};
use crate::stages;

pub(super) fn run(root: &Root, named: Option<u8>) -> Result<ExitCode> {
    let mut progress = Progress::load(root)?;
    let number = named.unwrap_or_else(|| progress.current_or_first());
    let stage = stages::get(number).context("the parser only accepts stages on the ladder")?;
    let style = Style::detect();
    // The card names what the learner's last failure shows, which no generic hint can:
    // it comes first, once, and the next `byo hint` goes on with the hints.
    if let Some(card) = progress.card_to_offer(number) {
        println!(
            "{}",
            style.bold(&format!(
                "Your last test of stage {number:02} failed the way this belief makes it fail:"
            ))
        );
        print!("{}", render_card(card, &style, ""));
        let again = match named {
            Some(n) => format!("`just hint {n:02}` (or `cargo byo hint {n:02}`)"),
            None => "`just hint` (or `cargo byo hint`)".to_owned(),
        };
        println!(
            "{}",
            style.dim(&format!("{again} again gives the stage's next hint."))
        );
        progress.offered(number);
        progress.save(root)?;
        return Ok(ExitCode::SUCCESS);
    }
    let path = root.hints_file(stage);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let hints = split_hints(&text);
    if hints.is_empty() {
        bail!("{} has no `## Hint N` sections", path.display());
    }
    let revealed = progress.hints.entry(Progress::key(number)).or_insert(0);
    if *revealed >= hints.len() {
        println!(
            "{}",
            style.dim(&format!(
                "All {} hints of stage {number:02} are revealed; here is the last again.",
                hints.len()
            ))
        );
        println!("{}", hints[hints.len() - 1]);
        return Ok(ExitCode::SUCCESS);
    }
    *revealed += 1;
    let shown = *revealed;
    println!(
        "{}",
        style.bold(&format!(
            "Hint {shown} of {} for {}",
            hints.len(),
            stages::title(number)
        ))
    );
    println!("{}", hints[shown - 1]);
    progress.save(root)?;
    Ok(ExitCode::SUCCESS)
}

/// The bodies of the `## Hint N` sections, in order.
pub(crate) fn split_hints(text: &str) -> Vec<String> {
    let mut hints: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("## Hint") {
            hints.push(String::new());
        } else if let Some(current) = hints.last_mut() {
            current.push_str(line);
            current.push('\n');
        }
    }
    hints.into_iter().map(|h| h.trim().to_owned()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_stage_with_a_hints_file_has_three_hints() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../hints");
        for stage in crate::stages::LADDER {
            let path = root.join(format!("{:02}.md", stage.number));
            if let Ok(text) = std::fs::read_to_string(&path) {
                assert_eq!(super::split_hints(&text).len(), 3, "{}", path.display());
            }
        }
    }
}
