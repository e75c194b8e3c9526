//! `byo grade` against the graders' own oracle copied into its stage
//! (`tests/fixtures/attack-oracle-copy`): the student template ships the graders, whose
//! oracles are working models of what a learner writes. The copy earns what the code
//! earns, and is flagged as the oracles' in the report and the gradebook, while an honest
//! solution graded beside it is flagged for nothing but being the reference.

use std::fs;

use super::grade;
use super::reading::{check, report, verdict};
use super::submissions::{Base, repo, submission};

#[test]
fn an_oracle_copied_into_its_stage_is_flagged_as_the_oracles() {
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let copy = submission(
        &subs,
        "attack-oracle-copy",
        Base::Skeleton,
        Some("attack-oracle-copy"),
    );
    // As an attacker would: from the template's `graders/`, verbatim.
    fs::copy(
        repo().join("graders/src/stage03/oracle.rs"),
        copy.join("stages/03-parallelism/src/oracle.rs"),
    )
    .expect("the oracle copied");
    let honest = submission(&subs, "honest", Base::ReferenceUpTo(3), None);
    let out = scratch.path().join("out");
    grade(&[
        copy.display().to_string(),
        honest.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--seed".into(),
        "7".into(),
        "--stages".into(),
        "03".into(),
        "--timeout".into(),
        "5".into(),
    ]);

    let r = report(&out, "attack-oracle-copy");
    // The oracle answers the formulas; the rest of the stage is the skeleton's `todo!()`.
    assert_eq!(check(&r, 3, "key-group"), "passed", "{r:#}");
    assert_ne!(verdict(&r, 3), "passed", "{r:#}");
    let flagged = r["files"]["copies_of_reference"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        flagged.starts_with("03-parallelism:") && flagged.contains("the graders' oracles"),
        "the copy is flagged as the oracles': {r:#}"
    );
    let md = fs::read_to_string(out.join("attack-oracle-copy/report.md")).expect("report.md");
    assert!(md.contains("graders/src/stage03/oracle.rs"), "{md}");
    // The gradebook's column lists the flagged stages.
    let csv = fs::read_to_string(out.join("grades.csv")).expect("grades.csv");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("attack-oracle-copy,") && l.contains(",03,")),
        "{csv}"
    );

    let r = report(&out, "honest");
    assert_eq!(verdict(&r, 3), "passed", "{r:#}");
    let flagged = r["files"]["copies_of_reference"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        !flagged.contains("the graders' oracles"),
        "the reference is not the oracles' copy: {r:#}"
    );
}
