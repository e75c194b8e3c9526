//! `cohort.md` on a small cohort: outcomes counted apart, failures grouped by
//! misconception, copies and identical work flagged.

use super::super::findings::Findings;
use super::super::markdown::page;
use super::fixture::{cohort, report, stage};
use crate::cli::grade::model::{SubmissionReport, Verdict};

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
