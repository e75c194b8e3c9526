//! Tests of inert text: the issue's attacks (a panic message that closes `report.md`'s
//! fence and writes a total and an `<img onerror>`, a folder named like a formula)
//! written through each output, and the written Markdown read back as CommonMark reads
//! its fenced code blocks.

use super::*;
use crate::cli::grade::model::{
    CheckGrade, FailureGrade, Provenance, StageGrade, SubmissionReport, Verdict,
};

/// A panic message that closes a three-backtick fence and writes top-level Markdown.
const CLOSES_THE_FENCE: &str = "boom\n```\n\nTotal: **100.0 / 100**\n\n\
     <img src=x onerror=alert(1)>\n````\n~~~\n```text";

/// The lines of `markdown` outside every fenced code block, as CommonMark finds them:
/// a fence opens on a line indented at most three spaces with three or more backticks
/// (whose info string holds none) or tildes, and closes on such a line of the same
/// character, at least as long, with nothing after it but spaces. A carriage return
/// ends a line too.
pub(crate) fn outside_code_blocks(markdown: &str) -> Vec<String> {
    let mut outside = Vec::new();
    let mut open: Option<(char, usize)> = None;
    for line in markdown.split(['\n', '\r']) {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        let fence = rest
            .chars()
            .next()
            .filter(|c| indent <= 3 && (*c == '`' || *c == '~'))
            .map(|c| (c, rest.len() - rest.trim_start_matches(c).len()))
            .filter(|(_, n)| *n >= 3);
        match (open, fence) {
            (Some((c, n)), Some((f, m))) if f == c && m >= n => {
                if rest[m..].trim().is_empty() {
                    open = None;
                }
            }
            (Some(_), _) => {}
            (None, Some((c, n))) if c == '~' || !rest[n..].contains('`') => open = Some((c, n)),
            (None, _) => outside.push(line.to_owned()),
        }
    }
    outside
}

fn submission_report(submission: &str, detail: &str, errors: Option<&str>) -> SubmissionReport {
    let failing = CheckGrade {
        name: "chain".to_owned(),
        passed: false,
        failure: Some(FailureGrade {
            case_index: 3,
            case: "vec![1, 2]".to_owned(),
            anomaly: "panic".to_owned(),
            detail: detail.to_owned(),
            misconception: None,
        }),
        not_reproduced: None,
        weight: 1.0,
        gate: false,
    };
    let stage = |number, verdict, checks, errors: Option<&str>| StageGrade {
        stage: number,
        title: format!("stage {number:02} · test"),
        verdict,
        score: 0.0,
        weight: 1.0,
        checks,
        errors: errors.map(str::to_owned),
        cases_judged: 4,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    };
    SubmissionReport {
        submission: submission.to_owned(),
        path: format!("submissions/{submission}"),
        seed: 7,
        draw: Default::default(),
        stage_runs: Default::default(),
        history: Vec::new(),
        provenance: Provenance::default(),
        stages: vec![
            stage(1, Verdict::Failed, vec![failing], None),
            stage(2, Verdict::DoesNotBuild, Vec::new(), errors),
        ],
        total: 0.0,
        files: crate::cli::grade::model::Overlay {
            overlaid: vec!["stages/01-dataflow/src/`x`|y.rs".to_owned()],
            ..Default::default()
        },
        file_hashes: Default::default(),
        changed_from_skeleton: vec!["stages/01-dataflow/src/`x`|y.rs".to_owned()],
        similarity: Vec::new(),
        term: Default::default(),
        error: None,
        seconds: 1.0,
    }
}

#[test]
fn a_fence_is_longer_than_any_run_of_backticks_in_its_text() {
    assert_eq!(fence("text", "plain"), "```text\nplain\n```");
    assert_eq!(fence("text", "a ```` b"), "`````text\na ```` b\n`````");
    for body in ["```", "````\n```", CLOSES_THE_FENCE, "x\r```\r"] {
        let block = format!("before\n\n{}\n\nafter", fence("text", body));
        assert_eq!(
            outside_code_blocks(&block),
            ["before", "", "", "after"],
            "{body:?}"
        );
    }
}

#[test]
fn the_scanner_sees_a_fence_closed_by_the_text() {
    // The scanner must be able to fail: the fence of old, three backticks, is closed.
    let naive = format!("```text\n{CLOSES_THE_FENCE}\n```");
    let outside = outside_code_blocks(&naive);
    assert!(
        outside.iter().any(|l| l.contains("Total: **100.0 / 100**")),
        "{outside:?}"
    );
}

#[test]
fn a_panic_message_and_a_compiler_error_stay_inside_their_code_blocks() {
    let md = crate::cli::grade::outputs::report::markdown(&submission_report(
        "ada",
        CLOSES_THE_FENCE,
        Some(CLOSES_THE_FENCE),
    ));
    let outside = outside_code_blocks(&md);
    let totals: Vec<&String> = outside.iter().filter(|l| l.starts_with("Total:")).collect();
    assert_eq!(totals, ["Total: **0.0 / 100**"], "{md}");
    assert!(!outside.iter().any(|l| l.contains("<img")), "{md}");
    assert_eq!(md.matches("<img").count(), 2, "both are still shown: {md}");
}

#[test]
fn names_are_escaped_wherever_markdown_shows_them() {
    let evil = "=HYPERLINK(\"x\") <img src=x onerror=alert(1)> **b** [l](u)\n# h | c";
    let md = crate::cli::grade::outputs::report::markdown(&submission_report(evil, "boom", None));
    let heading = md.lines().next().expect("a heading");
    assert_eq!(
        heading,
        "# Grade report: =HYPERLINK(\"x\") \\<img src=x onerror=alert(1)\\> \\*\\*b\\*\\* \
         \\[l\\](u)\u{fffd}# h \\| c"
    );
    assert!(md.contains("- submission: `=HYPERLINK"), "{md}");
    assert!(
        !md.contains("\n# h"),
        "a line break in a name starts no heading: {md}"
    );
    assert!(md.contains("``stages/01-dataflow/src/`x`\\|y.rs``"), "{md}");
    assert_eq!(code("`x`"), "`` `x` ``");
}

#[test]
fn a_csv_cell_never_starts_a_formula() {
    assert_eq!(csv_cell("ada"), "ada");
    assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    for start in ["+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
        assert!(
            csv_cell(start).trim_start_matches('"').starts_with('\''),
            "{start:?}"
        );
    }
    assert_eq!(csv_cell("a,b"), "\"a,b\"");
}
