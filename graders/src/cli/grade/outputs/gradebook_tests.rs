//! Tests of the gradebook: rebuilt from the reports in `--out`, a verdict per row.

use super::*;
use crate::cli::grade::model::{Provenance, StageGrade, Verdict};
use crate::cli::grade::outputs::report::write_submission;

fn report(name: &str, verdicts: &[Verdict], total: f64, error: Option<&str>) -> SubmissionReport {
    SubmissionReport {
        submission: name.to_owned(),
        path: name.to_owned(),
        seed: 9,
        draw: Default::default(),
        stage_runs: Default::default(),
        history: Vec::new(),
        provenance: Provenance {
            grader_revision: "r".into(),
            lock_hash: "h".into(),
            toolchain: "t".into(),
            sandboxed: true,
            ..Default::default()
        },
        stages: verdicts
            .iter()
            .enumerate()
            .map(|(i, v)| StageGrade {
                stage: i as u8 + 1,
                title: format!("stage {:02}", i + 1),
                verdict: *v,
                score: if *v == Verdict::Passed { 1.0 } else { 0.0 },
                weight: 1.0,
                checks: Vec::new(),
                errors: None,
                cases_judged: 0,
                seconds: 0.0,
                over_your_stages: None,
                printed: Vec::new(),
            })
            .collect(),
        total,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        similarity: Vec::new(),
        term: Default::default(),
        error: error.map(str::to_owned),
        seconds: 0.0,
    }
}

#[test]
fn each_row_says_how_the_submission_came_out() {
    use Verdict::*;
    let says = |r: &SubmissionReport| r.overall();
    assert_eq!(
        says(&report("a", &[Passed, Passed], 100.0, None)),
        "mastered"
    );
    assert_eq!(says(&report("a", &[Passed, Failed], 50.0, None)), "partial");
    assert_eq!(
        says(&report("a", &[NotStarted, NotStarted], 0.0, None)),
        "not started"
    );
    assert_eq!(
        says(&report("a", &[DoesNotBuild, Blocked], 0.0, None)),
        "did not build"
    );
    assert_eq!(
        says(&report("a", &[Failed, NotStarted], 0.0, None)),
        "failed"
    );
    let zip = report("a.zip", &[], 0.0, Some("not a submission: not a folder"));
    assert_eq!(says(&zip), "not a submission");
}

#[test]
fn regrading_one_submission_changes_its_row_only() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path();
    let write =
        |r: &SubmissionReport| write_submission(&out.join(&r.submission), r, None, false, false);
    write(&report("ada", &[Verdict::Passed], 100.0, None)).unwrap();
    write(&report("bob", &[Verdict::Failed], 0.0, None)).unwrap();
    write_gradebook(out).unwrap();
    // Bob is regraded alone, and now passes: Ada's row stays.
    write(&report("bob", &[Verdict::Passed], 100.0, None)).unwrap();
    write_gradebook(out).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    assert_eq!(
        csv,
        "submission,verdict,seed,01,total,copies_of_reference,copies_of_peers,\
         student_id,student_name,submitted_at,late_minutes\n\
         ada,mastered,9,100.0,100.0,,,,,,\n\
         bob,mastered,9,100.0,100.0,,,,,,\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("grades.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
    assert!(
        std::fs::read_to_string(out.join("cohort.md"))
            .unwrap()
            .contains("2 submission(s)")
    );
}

/// The cells of one CSV line, unquoted as a spreadsheet reads them.
fn csv_cells(line: &str) -> Vec<String> {
    let (mut cells, mut cell, mut quoted, mut chars) =
        (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

#[test]
fn a_folder_named_like_a_formula_is_text_in_every_gradebook() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path();
    let name = "=HYPERLINK(\"x\")";
    let r = report(name, &[Verdict::Failed], 0.0, None);
    write_submission(&out.join("formula"), &r, None, false, false).unwrap();
    write_gradebook(out).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let row = csv.lines().nth(1).expect("a row");
    assert_eq!(csv_cells(row)[0], "'=HYPERLINK(\"x\")", "{csv}");
    let cohort = std::fs::read_to_string(out.join("cohort.md")).unwrap();
    assert!(
        cohort.contains("| failed | 1 | =HYPERLINK(\"x\") |"),
        "{cohort}"
    );
    let r = report(
        "<img src=x onerror=alert(1)>_b_",
        &[Verdict::Failed],
        0.0,
        None,
    );
    write_submission(&out.join("img"), &r, None, false, false).unwrap();
    write_gradebook(out).unwrap();
    let cohort = std::fs::read_to_string(out.join("cohort.md")).unwrap();
    assert!(!cohort.replace("\\<", "").contains('<'), "no tag: {cohort}");
    assert!(
        cohort.contains("\\<img src=x onerror=alert(1)\\>\\_b\\_"),
        "{cohort}"
    );
    let html = std::fs::read_to_string(out.join("cohort.html")).unwrap();
    assert!(!html.contains("<img"), "{html}");
}

#[test]
fn a_stage_never_judged_for_a_student_is_blank_not_zero() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path();
    let write =
        |r: &SubmissionReport| write_submission(&out.join(&r.submission), r, None, false, false);
    write(&report(
        "ada",
        &[Verdict::Passed, Verdict::Failed],
        50.0,
        None,
    ))
    .unwrap();
    // Only stage 01 of Bob was ever judged.
    write(&report("bob", &[Verdict::Passed], 100.0, None)).unwrap();
    write_gradebook(out).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let bob = csv
        .lines()
        .find(|l| l.starts_with("bob,"))
        .expect("bob's row");
    assert_eq!(
        csv_cells(bob),
        [
            "bob", "mastered", "9", "100.0", "", "100.0", "", "", "", "", "", ""
        ]
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("grades.json")).unwrap()).unwrap();
    assert!(json[1]["02"].is_null(), "{json:#}");
    assert_eq!(json[0]["02"], 0.0, "{json:#}");
}

/// Stage 01 written as fingerprints `hashes`, compared with a reference of 0..20.
fn written(mut r: SubmissionReport, hashes: std::ops::Range<u64>) -> SubmissionReport {
    use crate::cli::grade::intake::{likeness::compare, similarity};
    use crate::cli::grade::model::{Print, Prints, StageSimilarity};
    let side = |hashes: std::ops::Range<u64>| Prints {
        files: vec!["f.rs".to_owned()],
        prints: (1..)
            .zip(hashes)
            .map(|(line, hash)| Print {
                hash,
                file: 0,
                first: line,
                last: line,
            })
            .collect(),
    };
    let learner = side(hashes);
    r.similarity = vec![StageSimilarity {
        stage: 1,
        against: vec![compare(&learner, &side(0..20), similarity::REFERENCE)],
        prints: learner,
    }];
    r.files.copies_of_reference = similarity::flagged(&r.similarity);
    r
}

#[test]
fn the_gradebook_names_copies_of_the_reference_and_of_each_other() {
    let out = tempfile::tempdir().unwrap();
    let out = out.path();
    let graded =
        |name: &str, hashes| written(report(name, &[Verdict::Passed], 100.0, None), hashes);
    for r in [
        graded("ada", 0..20),
        graded("bob", 100..130),
        graded("cal", 110..140),
        graded("dee", 500..520),
    ] {
        write_submission(&out.join(&r.submission), &r, None, false, false).unwrap();
    }
    write_gradebook(out).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(csv_cells).collect();
    let copies: Vec<[&str; 3]> = rows
        .iter()
        .map(|r| [r[0].as_str(), r[5].as_str(), r[6].as_str()])
        .collect();
    assert_eq!(
        copies,
        [
            ["ada", "01", ""],
            ["bob", "", "01:cal"],
            ["cal", "", "01:bob"],
            ["dee", "", ""]
        ],
        "{csv}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("grades.json")).unwrap()).unwrap();
    assert_eq!(json[1]["copies_of_peers"], serde_json::json!(["01:cal"]));
    assert_eq!(json[0]["copies_of_reference"], serde_json::json!(["01"]));
}

#[test]
fn the_roster_and_the_due_date_reach_every_gradebook_row_and_the_report() {
    use crate::cli::grade::model::{Student, Term};
    let out = tempfile::tempdir().unwrap();
    let out = out.path();
    let mut ada = report("ada", &[Verdict::Passed], 100.0, None);
    ada.term = Term {
        student: Some(Student {
            id: "=s001".into(),
            name: "Lovelace, Ada".into(),
        }),
        submitted_at: Some("2026-12-02T00:04:01Z".into()),
        due: Some("2026-12-01T23:59:00Z".into()),
        late_minutes: Some(6),
    };
    write_submission(&out.join("ada"), &ada, None, false, false).unwrap();
    write_gradebook(out).unwrap();
    let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let row = csv_cells(csv.lines().nth(1).expect("a row"));
    assert_eq!(
        row[row.len() - 4..],
        ["'=s001", "Lovelace, Ada", "2026-12-02T00:04:01Z", "6"],
        "an id that looks like a formula is text: {csv}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("grades.json")).unwrap()).unwrap();
    assert_eq!(json[0]["student_id"], "=s001");
    assert_eq!(json[0]["late_minutes"], 6);
    let md = std::fs::read_to_string(out.join("ada/report.md")).unwrap();
    assert!(md.contains("- student: `=s001` (Lovelace, Ada)"), "{md}");
    assert!(
        md.contains("- handed in: 2026-12-02T00:04:01Z (its newest graded file); due 2026-12-01T23:59:00Z: **late by 6 min**"),
        "{md}"
    );
}
