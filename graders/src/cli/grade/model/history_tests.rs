//! Merging a regrade into a student's earlier report.

use super::*;
use crate::cli::grade::model::{SeedDraw, StageGrade, Verdict};

fn stage(number: u8, score: f64) -> StageGrade {
    StageGrade {
        stage: number,
        title: format!("stage {number:02}"),
        verdict: if score == 1.0 {
            Verdict::Passed
        } else {
            Verdict::Failed
        },
        score,
        weight: 1.0,
        checks: Vec::new(),
        errors: None,
        cases_judged: 0,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    }
}

fn report(stages: Vec<StageGrade>) -> SubmissionReport {
    SubmissionReport {
        submission: "ada".into(),
        path: "ada".into(),
        seed: 0,
        draw: SeedDraw::default(),
        provenance: Default::default(),
        stages,
        total: 0.0,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        stage_runs: BTreeMap::new(),
        history: Vec::new(),
        similarity: Vec::new(),
        term: Default::default(),
        error: None,
        seconds: 0.0,
    }
}

fn run(seed: u64, at: &str) -> StageRun {
    StageRun {
        seed,
        draw: SeedDraw {
            run_seed: 1,
            salt: seed,
        },
        grader_revision: "abc".into(),
        graded_at: at.into(),
    }
}

#[test]
fn a_first_grade_records_every_stage_judged_as_a_change_from_nothing() {
    let mut first = report(vec![stage(2, 0.5), stage(1, 1.0)]);
    first.merge_earlier(None, &run(7, "monday"));
    let stages: Vec<u8> = first.stages.iter().map(|s| s.stage).collect();
    assert_eq!(stages, [1, 2], "in stage order");
    assert_eq!(first.stage_runs[&1], run(7, "monday"));
    let changes: Vec<(u8, Option<f64>, f64)> = first
        .history
        .iter()
        .map(|c| (c.stage, c.from, c.to))
        .collect();
    assert_eq!(changes, [(2, None, 0.5), (1, None, 1.0)]);
}

#[test]
fn a_regrade_of_one_stage_keeps_the_others_with_their_runs_and_appends_its_change() {
    let mut first = report(vec![stage(1, 1.0), stage(2, 1.0), stage(3, 0.25)]);
    first.merge_earlier(None, &run(7, "monday"));

    let mut again = report(vec![stage(3, 0.75)]);
    again.merge_earlier(Some(first.clone()), &run(9, "friday"));
    let scores: Vec<(u8, f64)> = again.stages.iter().map(|s| (s.stage, s.score)).collect();
    assert_eq!(scores, [(1, 1.0), (2, 1.0), (3, 0.75)]);
    assert_eq!(again.stage_runs[&1], run(7, "monday"), "kept, with its run");
    assert_eq!(again.stage_runs[&3], run(9, "friday"));
    assert_eq!(again.history.len(), 4, "{:#?}", again.history);
    let last = again.history.last().expect("a change");
    assert_eq!((last.stage, last.from, last.to), (3, Some(0.25), 0.75));
    assert_eq!(last.run, run(9, "friday"));

    // Judged again with the same score: no change to record, the run is still its source.
    let mut same = report(vec![stage(3, 0.75)]);
    same.merge_earlier(Some(again.clone()), &run(11, "sunday"));
    assert_eq!(same.history, again.history);
    assert_eq!(same.stage_runs[&3], run(11, "sunday"));
}

#[test]
fn a_run_that_judged_nothing_keeps_every_earlier_stage() {
    let mut first = report(vec![stage(1, 1.0)]);
    first.merge_earlier(None, &run(7, "monday"));
    let mut failed = report(Vec::new());
    failed.error = Some("the grading environment failed".into());
    failed.merge_earlier(Some(first.clone()), &run(9, "friday"));
    assert_eq!(failed.stages, first.stages);
    assert_eq!(failed.stage_runs, first.stage_runs);
    assert_eq!(failed.history, first.history);
}

#[test]
fn the_report_says_which_stages_an_earlier_run_judged_and_every_change() {
    use crate::cli::grade::outputs::report::markdown;
    let mut first = report(vec![stage(1, 1.0), stage(3, 0.25)]);
    first.draw = run(7, "monday").draw;
    first.provenance.graded_at = "monday".into();
    first.merge_earlier(None, &run(7, "monday"));
    assert!(
        !markdown(&first).contains("## Earlier runs"),
        "one run, nothing judged twice"
    );
    let mut again = report(vec![stage(3, 0.75)]);
    again.draw = run(9, "friday").draw;
    again.provenance.graded_at = "friday".into();
    again.merge_earlier(Some(first), &run(9, "friday"));
    let md = markdown(&again);
    assert!(
        md.contains(
            "Kept from an earlier run, which this one did not judge again:\n\n\
                     - stage 01: graded at monday, grader revision abc, seed 7\n"
        ),
        "{md}"
    );
    assert!(md.contains("| 03 | 25% | 75% | friday | abc | 9 |"), "{md}");
    assert!(md.contains("| 01 | — | 100% | monday | abc | 7 |"), "{md}");
}
