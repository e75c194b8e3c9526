//! A small cohort for the tests: three submissions, each failing (or not) in its own way.

use crate::cli::grade::intake::likeness::compare;
use crate::cli::grade::model::{
    CheckGrade, FailureGrade, Print, Prints, Provenance, StageGrade, StageSimilarity,
    SubmissionReport, Verdict,
};
use crate::stage08::{Anomaly, CellFailure, MAX_LAG, matrix};

fn check(name: &str, failure: Option<(&str, Option<&str>)>) -> CheckGrade {
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
    }
}

pub(super) fn report(name: &str, stages: Vec<StageGrade>) -> SubmissionReport {
    SubmissionReport {
        submission: name.to_owned(),
        path: name.to_owned(),
        seed: 1,
        provenance: Provenance::default(),
        stages,
        total: 0.0,
        files: Default::default(),
        file_hashes: Default::default(),
        changed_from_skeleton: Vec::new(),
        similarity: Vec::new(),
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
    let mut carol = report(
        "carol",
        vec![
            stage(1, Verdict::Passed, vec![check("chain", None)]),
            stage(8, Verdict::DoesNotBuild, Vec::new()),
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
