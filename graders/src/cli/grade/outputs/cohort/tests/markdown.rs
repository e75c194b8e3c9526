//! `cohort.md` on a small cohort: outcomes counted apart, failures grouped by
//! misconception, copies and identical work flagged, every failing stage placed, every
//! submission's row linked to its report.

use super::super::findings::Findings;
use super::super::markdown::page;
use super::fixture::{CAROL_08_ERRORS, check, cohort, report, stage};
use crate::cli::grade::model::{StageGrade, SubmissionReport, Verdict};

fn markdown(reports: &[SubmissionReport]) -> String {
    page(&Findings::gather(reports))
}

#[test]
fn cohort_md_groups_failures_by_misconception() {
    let md = markdown(&cohort());
    assert!(
        md.contains(
            "## Misconceptions\n\nFailures grouped by the misconception recognised behind them \
             (the card a learner's report shows):\n\n\
             | misconception | occurrences | where |\n|---|---|---|\n\
             | commits before the notification | 2 | alice (08 exactly-once), bob \\<b\\> (08 exactly-once) |\n"
        ),
        "{md}"
    );
    // Without a recognised misconception, no such section.
    let mut plain = cohort();
    for report in &mut plain {
        for stage in &mut report.stages {
            for check in &mut stage.checks {
                if let Some(f) = &mut check.failure {
                    f.misconception = None;
                }
            }
        }
    }
    assert!(!markdown(&plain).contains("Misconceptions"));
}

#[test]
fn the_cohort_counts_not_started_apart_and_flags_identical_work() {
    use Verdict::*;
    let graded = |name: &str, verdicts: [Verdict; 2], total: f64| SubmissionReport {
        total,
        ..report(
            name,
            vec![
                stage(1, verdicts[0], Vec::new()),
                stage(2, verdicts[1], Vec::new()),
            ],
        )
    };
    let mut ada = graded("ada", [Passed, NotStarted], 50.0);
    let mut bob = graded("bob", [Passed, DoesNotBuild], 50.0);
    let cyd = graded("cyd", [NotStarted, NotStarted], 0.0);
    for r in [&mut ada, &mut bob] {
        let path = "stages/01-dataflow/src/run.rs".to_owned();
        r.file_hashes.insert(path.clone(), "abc".to_owned());
        r.changed_from_skeleton.push(path);
    }
    let md = markdown(&[ada, bob, cyd]);
    assert!(md.contains("| not started | 1 | cyd |"), "{md}");
    assert!(md.contains("| partial | 2 | ada, bob |"), "{md}");
    // Stage 02: one not started, one not building, none wrong.
    assert!(
        md.contains("| stage 02 | 0 | 0 | 0 | 2 | 1 | 0 | 0 | 0.0 | 0.0 |"),
        "{md}"
    );
    assert!(
        md.contains("| stage 01 | 2 | 0 | 0 | 1 | 0 | 0 | 0 | 66.7 | 100.0 |"),
        "{md}"
    );
    assert!(md.contains("| 01-dataflow | ada, bob |"), "{md}");
}

/// The rows of the table under `## heading`, each cell trimmed (escaped pipes kept).
fn table(md: &str, heading: &str) -> Vec<Vec<String>> {
    let at = md.find(&format!("## {heading}\n")).expect(heading);
    md[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let cells = l.trim_matches('|').replace("\\|", "\u{0}");
            cells
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "\\|"))
                .collect()
        })
        .collect()
}

#[test]
fn every_failing_stage_says_where_and_counts() {
    use Verdict::*;
    let with_errors = |number, verdict, errors: &str| StageGrade {
        errors: Some(errors.to_owned()),
        ..stage(number, verdict, Vec::new())
    };
    let carol = report("carol", vec![with_errors(8, DoesNotBuild, CAROL_08_ERRORS)]);
    let dan = report(
        "dan",
        vec![
            with_errors(3, DoesNotBuild, "error: linking with `cc` failed"),
            with_errors(
                4,
                Blocked,
                "stage 03 does not build, and this stage depends on it",
            ),
        ],
    );
    let refusal = "the grade binary refused the request: unknown stage\nmore";
    let eve = report("eve", vec![with_errors(7, NotJudged, refusal)]);
    let fay = report(
        "fay",
        vec![stage(
            7,
            Failed,
            vec![
                check("crash", Some(("ran 10 s", None))),
                check("order", Some(("boom", None))),
            ],
        )],
    );
    let mut zip = report("zip", Vec::new());
    zip.error = Some("not a submission: `zip` is not a folder".to_owned());
    let mut reports = vec![carol, dan, eve, fay, zip];
    reports[3].stages[0].checks[0]
        .failure
        .as_mut()
        .unwrap()
        .anomaly = "time-out".to_owned();
    reports[3].stages[0].checks[1]
        .failure
        .as_mut()
        .unwrap()
        .anomaly = "panic".to_owned();
    let md = page(&Findings::gather(&reports));

    let mut anomalies = table(&md, "Anomalies");
    anomalies.sort();
    let row = |a: &str, n: &str, w: &str| vec![a.to_owned(), n.to_owned(), w.to_owned()];
    assert_eq!(
        anomalies,
        [
            row(
                "blocked",
                "1",
                "dan (04 stage 03 does not build, and this stage depends on it)"
            ),
            row(
                "does not build",
                "2",
                "carol (08 stages/08-transactional-sink/src/sink.rs:41), \
                 dan (03 error: linking with \\`cc\\` failed)"
            ),
            row(
                "not a submission",
                "1",
                "zip (not a submission: \\`zip\\` is not a folder)"
            ),
            row(
                "not judged",
                "1",
                "eve (07 the grade binary refused the request: unknown stage)"
            ),
            row("panic", "1", "fay (07 order)"),
            row("time-out", "1", "fay (07 crash)"),
        ],
        "{md}"
    );
}

#[test]
fn every_submission_s_row_links_to_its_report() {
    let mut reports = cohort();
    reports.push(report("x](javascript:alert(1))", Vec::new()));
    let md = page(&Findings::gather(&reports));
    let rows = table(&md, "Submissions");
    let first: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        first,
        [
            "[alice](./alice/report.md)",
            "[bob \\<b\\>](./bob%20%3Cb%3E/report.md)",
            "[carol](./carol/report.md)",
            // The name cannot close the link's text nor choose where it goes.
            "[x\\](javascript:alert(1))](./x%5D%28javascript%3Aalert%281%29%29/report.md)",
        ],
        "{md}"
    );
    // Verdict, total, then each stage's score, blank where the report has no such stage.
    assert_eq!(rows[0][1..], ["failed", "0.0", "100.0", "0.0"], "{md}");
    assert_eq!(rows[3][1..], ["failed", "0.0", "", ""], "{md}");
}

#[test]
fn cohort_md_flags_stages_like_the_reference_and_submissions_alike_with_where() {
    let md = markdown(&cohort());
    assert!(
        md.contains(
            "| carol | 01 | 100% in the reference (20 fingerprint(s)); \
             stages/01-dataflow/src/source.rs:1-20 \\~ solutions/01-dataflow/src/source.rs:1-20 |\n"
        ),
        "{md}"
    );
    assert!(
        md.contains(
            "## Like another submission\n\nPairs of submissions where 40% or more of one's own \
             code on a stage is in the other's, both ways (scores unchanged):\n\n\
             | stage | submissions | how alike, and where |\n|---|---|---|\n\
             | 08 | alice, bob \\<b\\> | alice: 67% in bob \\<b\\> (20 fingerprint(s)); "
        ),
        "{md}"
    );
    // A cohort where nobody is alike has neither section.
    let mut apart = cohort();
    for r in &mut apart {
        r.similarity.clear();
    }
    let md = markdown(&apart);
    assert!(!md.contains("## Like"), "{md}");
}
