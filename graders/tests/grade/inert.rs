//! `byo grade` against text meant to act where it is shown (`tests/fixtures/attack-markdown`
//! and a folder named like a spreadsheet formula): a panic message that closes its code
//! fence stays inside one in `report.md`, and a formula in a folder's name is a plain
//! cell in `grades.csv`, while both submissions get what their code earns.

use std::fs;

use super::attacks::sandbox_available;
use super::grade;
use super::reading::{check, report};
use super::submissions::{Base, submission};

/// The formula a folder is named: a live `HYPERLINK` in a spreadsheet, were it a cell.
const FORMULA: &str = "=HYPERLINK(\"evil.example\",\"x\")";

#[test]
fn a_panic_message_and_a_folder_name_act_nowhere() {
    if !sandbox_available() {
        return;
    }
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let markdown = submission(
        &subs,
        "attack-markdown",
        Base::ReferenceUpTo(1),
        Some("attack-markdown"),
    );
    let formula = submission(&subs, FORMULA, Base::ReferenceUpTo(1), None);
    let out = scratch.path().join("out");
    grade(&[
        markdown.display().to_string(),
        formula.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--seed".into(),
        "7".into(),
        "--stages".into(),
        "01".into(),
        "--timeout".into(),
        "5".into(),
    ]);

    let r = report(&out, "attack-markdown");
    assert_eq!(check(&r, 1, "chain"), "panic", "{r:#}");
    let md = fs::read_to_string(out.join("attack-markdown").join("report.md")).expect("report.md");
    assert!(
        md.contains("byo-markdown-marker"),
        "the message is shown: {md}"
    );
    for line in outside_fences(&md) {
        assert!(
            !line.contains("byo-markdown-marker") && !line.contains("onerror"),
            "outside any code block: {line}\n{md}"
        );
    }

    let r = report(&out, FORMULA);
    assert_eq!(r["total"], 100.0, "{r:#}");
    let csv = fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    for cell in csv.lines().flat_map(|line| line.split(',')) {
        let cell = cell.trim_start_matches('"');
        assert!(
            !cell.starts_with('=') && !cell.starts_with('+') && !cell.starts_with('@'),
            "a cell that starts a formula: {cell}\n{csv}"
        );
    }
    assert!(
        csv.contains("'=HYPERLINK"),
        "the name is kept, neutralised: {csv}"
    );
}

/// The lines of `markdown` outside fenced code blocks (CommonMark: a fence of three or
/// more backticks or tildes closes only with the same character, at least as long).
fn outside_fences(markdown: &str) -> Vec<&str> {
    let mut open: Option<(char, usize)> = None;
    let mut outside = Vec::new();
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        let fence = ['`', '~'].into_iter().find_map(|c| {
            let run = trimmed.chars().take_while(|&x| x == c).count();
            (run >= 3).then_some((c, run))
        });
        match (open, fence) {
            (None, Some(f)) => open = Some(f),
            (Some((c, n)), Some((d, m))) if c == d && m >= n && trimmed[m..].trim().is_empty() => {
                open = None;
            }
            (None, None) => outside.push(line),
            _ => {}
        }
    }
    outside
}
