//! Tests of `report.md`: the stages a learner has not started share one line, and the
//! stages that need reading keep their blocks.

use super::*;
use crate::cli::grade::model::{CheckGrade, FailureGrade, StageGrade};

fn failing(name: &str, anomaly: &str, detail: &str) -> CheckGrade {
    CheckGrade {
        name: name.to_owned(),
        passed: false,
        failure: Some(FailureGrade {
            case_index: 0,
            case: "records []".to_owned(),
            anomaly: anomaly.to_owned(),
            detail: detail.to_owned(),
            misconception: None,
        }),
        not_reproduced: None,
        weight: 1.0,
        gate: false,
    }
}

fn stage(number: u8, verdict: Verdict, checks: Vec<CheckGrade>) -> StageGrade {
    StageGrade {
        stage: number,
        title: format!("stage {number:02}"),
        verdict,
        score: 0.0,
        weight: 1.0,
        checks,
        errors: None,
        cases_judged: 1,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    }
}

/// A stage of the skeleton, untouched: each of its checks reaches the same `todo!()`.
fn untouched(number: u8) -> StageGrade {
    let todo = format!("not started: todo!() at stages/{number:02}/src/lib.rs:3");
    let checks = ["chain", "crash", "order"]
        .iter()
        .map(|name| failing(name, "not started", &todo))
        .collect();
    stage(number, Verdict::NotStarted, checks)
}

fn submission(stages: Vec<StageGrade>) -> SubmissionReport {
    SubmissionReport {
        submission: "ada".to_owned(),
        path: "ada".to_owned(),
        seed: 1,
        draw: Default::default(),
        stage_runs: Default::default(),
        history: Vec::new(),
        similarity: Vec::new(),
        term: Default::default(),
        provenance: Default::default(),
        stages,
        total: 0.0,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        error: None,
        seconds: 0.0,
    }
}

#[test]
fn the_stages_not_started_share_one_line() {
    let wrong = failing("chain", "wrong result", "expected [1] got [2]");
    let mut stages = vec![
        stage(1, Verdict::Passed, Vec::new()),
        stage(2, Verdict::Failed, vec![wrong]),
    ];
    stages.extend((4..=8).map(untouched));
    let md = markdown(&submission(stages));

    assert_eq!(
        md.matches("Not started: 04, 05, 06, 07, 08 — each scores 0\n")
            .count(),
        1,
        "{md}"
    );
    assert!(!md.contains("todo!()"), "no block per check: {md}");
    for n in 4..=8 {
        assert!(!md.contains(&format!("## stage {n:02}")), "{md}");
        // The table keeps its row of each stage.
        assert!(
            md.contains(&format!("| stage {n:02} | not started | 0/3 | 0% |")),
            "{md}"
        );
    }
    // The stage that needs reading keeps its block.
    assert!(md.contains("## stage 02: fail\n"), "{md}");
    assert!(md.contains("expected [1] got [2]"), "{md}");
}

#[test]
fn one_stage_not_started_is_said_so_and_none_says_nothing() {
    let one = markdown(&submission(vec![
        stage(1, Verdict::Passed, Vec::new()),
        untouched(2),
    ]));
    assert!(one.contains("\nNot started: 02 — it scores 0\n"), "{one}");
    let none = markdown(&submission(vec![stage(1, Verdict::Passed, Vec::new())]));
    assert!(!none.contains("Not started"), "{none}");
}

#[test]
fn what_the_code_printed_is_shown_by_stage_case_and_run_inside_a_fence_it_cannot_close() {
    use crate::harness::printed::PrintedLine;
    let line = |case: Option<usize>, run: Option<&str>, text: &str| PrintedLine {
        case,
        run: run.map(str::to_owned),
        text: text.to_owned(),
    };
    let mut loud = stage(1, Verdict::Passed, Vec::new());
    loud.printed = vec![
        line(Some(3), None, "debug: polled 0"),
        line(Some(3), None, "```\n# Total: **100.0 / 100**"),
        line(Some(9), Some("crash after 2, lag 1"), "restored"),
    ];
    let quiet = stage(2, Verdict::Passed, Vec::new());
    let md = markdown(&submission(vec![loud, quiet.clone()]));
    let section = md
        .split("## What your code printed")
        .nth(1)
        .unwrap_or_else(|| panic!("no printed section: {md}"));
    assert!(section.contains("### stage 01"), "{section}");
    assert!(
        !section.contains("### stage 02"),
        "stage 02 printed nothing: {section}"
    );
    assert!(
        section.contains("--- case 3\ndebug: polled 0\n"),
        "{section}"
    );
    assert!(
        section.contains("--- case 9 · crash after 2, lag 1\nrestored"),
        "{section}"
    );
    // The text holds a run of three backticks: the fence is longer, so it stays shut.
    assert!(section.contains("````text\n--- case 3"), "{section}");
    assert!(section.contains("restored\n````\n"), "{section}");
    assert!(
        !markdown(&submission(vec![quiet])).contains("## What your code printed"),
        "nothing printed, no section"
    );
}
