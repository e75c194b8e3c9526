//! Cohorts for the tests: a small one of three submissions, each failing (or not) in its
//! own way, and a wide one, of every stage and many checks, for a phone's width.

use crate::cli::grade::intake::likeness::compare;
use crate::cli::grade::model::{
    CheckGrade, FailureGrade, Print, Prints, Provenance, StageGrade, StageSimilarity,
    SubmissionReport, Verdict,
};
use crate::stage08::{Anomaly, CellFailure, MAX_LAG, matrix};

/// The first error of carol's stage 08, which does not build.
pub(super) const CAROL_08_ERRORS: &str = "error[E0308]: mismatched types\n  \
    --> stages/08-transactional-sink/src/sink.rs:41:9\n   |\n41 |     x\n   |     ^ expected `u64`";

pub(super) fn check(name: &str, failure: Option<(&str, Option<&str>)>) -> CheckGrade {
    CheckGrade {
        name: name.to_owned(),
        passed: failure.is_none(),
        failure: failure.map(|(detail, misconception)| FailureGrade {
            case_index: 1,
            case: "records [1, 2, 3]".to_owned(),
            anomaly: "wrong result".to_owned(),
            detail: detail.to_owned(),
            misconception: misconception.map(str::to_owned),
        }),
        not_reproduced: None,
        weight: 1.0,
        gate: false,
    }
}

pub(super) fn stage(number: u8, verdict: Verdict, checks: Vec<CheckGrade>) -> StageGrade {
    StageGrade {
        stage: number,
        title: format!("stage {number:02}"),
        verdict,
        score: f64::from(u8::from(verdict == Verdict::Passed)),
        weight: 1.0,
        checks,
        errors: None,
        cases_judged: 1,
        seconds: 0.0,
        over_your_stages: None,
        printed: Vec::new(),
    }
}

pub(super) fn report(name: &str, stages: Vec<StageGrade>) -> SubmissionReport {
    SubmissionReport {
        submission: name.to_owned(),
        path: name.to_owned(),
        seed: 1,
        draw: Default::default(),
        stage_runs: Default::default(),
        history: Vec::new(),
        provenance: Provenance::default(),
        stages,
        total: 0.0,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        similarity: Vec::new(),
        term: Default::default(),
        error: None,
        seconds: 0.0,
    }
}

/// Fingerprints `hashes` of one file `file`, a line each from line 1.
pub(super) fn prints(file: &str, hashes: impl IntoIterator<Item = u64>) -> Prints {
    Prints {
        files: vec![file.to_owned()],
        prints: (1..)
            .zip(hashes)
            .map(|(line, hash)| Print {
                hash,
                file: 0,
                first: line,
                last: line,
            })
            .collect(),
    }
}

/// Stage `stage` written as `learner`, compared with a reference `reference`.
pub(super) fn similar(stage: u8, learner: Prints, reference: &Prints) -> StageSimilarity {
    StageSimilarity {
        stage,
        against: vec![compare(&learner, reference, "the reference")],
        prints: learner,
    }
}

/// A stage-08 failure detail whose matrix fails at `cells` (indices in plan order).
fn grid(cells: &[usize]) -> String {
    let mut verdicts: Vec<Result<(), CellFailure>> = vec![Ok(()); 5 * (MAX_LAG + 1)];
    for i in cells {
        verdicts[*i] = Err(CellFailure {
            anomaly: Anomaly::VisibleBeforeNotification,
            step: String::new(),
        });
    }
    format!("first wrong step\n{}", matrix(3, &verdicts))
}

/// Alice fails stage 08 two ways, Bob one way and has not started 01, Carol's 08 does
/// not build and her 01 is like the reference (all of it there); Alice's 08 and Bob's
/// are alike (20 of Alice's 30 fingerprints in Bob's 25, 20 of his in hers).
pub(super) fn cohort() -> Vec<SubmissionReport> {
    let early = Some("commits before the notification");
    let reference = prints("solutions/01-dataflow/src/source.rs", 0..40);
    let other = prints("solutions/08-transactional-sink/src/sink.rs", 1000..1040);
    let mut alice = report(
        "alice",
        vec![
            stage(1, Verdict::Passed, vec![check("chain", None)]),
            stage(
                8,
                Verdict::Failed,
                vec![
                    check("exactly-once", Some((&grid(&[3, 4]), early))),
                    check("protocol", Some((&grid(&[4, 5]), None))),
                    check("bad-input", None),
                ],
            ),
        ],
    );
    let mut bob = report(
        "bob <b>",
        vec![
            stage(
                1,
                Verdict::NotStarted,
                vec![check("chain", Some(("todo", None)))],
            ),
            stage(
                8,
                Verdict::Failed,
                vec![
                    check("exactly-once", Some((&grid(&[4]), early))),
                    check("protocol", None),
                    check("bad-input", None),
                ],
            ),
        ],
    );
    let unbuilt = StageGrade {
        errors: Some(CAROL_08_ERRORS.to_owned()),
        ..stage(8, Verdict::DoesNotBuild, Vec::new())
    };
    let mut carol = report(
        "carol",
        vec![
            stage(1, Verdict::Passed, vec![check("chain", None)]),
            unbuilt,
        ],
    );
    carol.similarity = vec![similar(
        1,
        prints("stages/01-dataflow/src/source.rs", 0..20),
        &reference,
    )];
    let sink = "stages/08-transactional-sink/src/sink.rs";
    alice.similarity = vec![similar(8, prints(sink, (100..120).chain(200..210)), &other)];
    bob.similarity = vec![similar(8, prints(sink, (100..120).chain(300..305)), &other)];
    vec![alice, bob, carol]
}

/// Twelve submissions of every stage, six checks each, every way a stage comes out: a
/// heatmap and a gradebook wider than a phone.
pub(super) fn wide_cohort() -> Vec<SubmissionReport> {
    let verdicts = [
        Verdict::Passed,
        Verdict::Failed,
        Verdict::NotStarted,
        Verdict::DoesNotBuild,
    ];
    (0..12)
        .map(|who| {
            let stages = (1..=8)
                .map(|n| {
                    let verdict = verdicts[(who + usize::from(n)) % verdicts.len()];
                    let checks = match verdict {
                        Verdict::DoesNotBuild => Vec::new(),
                        _ => (0..6)
                            .map(|c| {
                                let fails = verdict != Verdict::Passed && c % 2 == 0;
                                let card = (c == 0).then_some("commits before the notification");
                                check(&format!("law-{c}"), fails.then_some(("x", card)))
                            })
                            .collect(),
                    };
                    stage(n, verdict, checks)
                })
                .collect();
            let mut report = report(&format!("submission-with-a-long-name-{who:02}"), stages);
            if who == 3 {
                // A copy of the reference's stage 01: the flagged-copies table has a row.
                let reference = prints("solutions/01-dataflow/src/source.rs", 0..40);
                let copy = prints("stages/01-dataflow/src/source.rs", 0..40);
                report.similarity = vec![similar(1, copy, &reference)];
            }
            report
        })
        .collect()
}
