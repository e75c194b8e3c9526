//! `byo grade` against a submission that spends what it must not: a fork bomb in its
//! driver stops at the sandbox's process limit and is the submission's failure, while an
//! honest submission graded after it keeps full marks.

use super::attacks::sandbox_available;
use super::grade;
use super::reading::{check, report, stage};
use super::submissions::{Base, submission};
use graders::cli::grade::confine::pids::MAX_PROCESSES;

#[test]
fn a_fork_bomb_stops_at_the_process_limit_and_fails_its_own_stage() {
    if !sandbox_available() {
        return;
    }
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let bomb = submission(
        &subs,
        "attack-fork-bomb",
        Base::ReferenceUpTo(1),
        Some("attack-fork-bomb"),
    );
    let honest = submission(&subs, "honest", Base::ReferenceUpTo(1), None);
    let out = scratch.path().join("out");
    grade(&[
        bomb.display().to_string(),
        honest.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--seed".into(),
        "7".into(),
        "--stages".into(),
        "01".into(),
        "--timeout".into(),
        "5".into(),
    ]);
    let r = report(&out, "honest");
    assert_eq!(r["total"], 100.0, "{r:#}");

    let r = report(&out, "attack-fork-bomb");
    assert_eq!(check(&r, 1, "chain"), "panic", "{r:#}");
    let detail = stage(&r, 1)["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find_map(|c| c["failure"]["detail"].as_str())
        .expect("a failure");
    let started: u64 = detail
        .split("byo-fork-bomb started ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("how many it started: {detail}"));
    assert!(
        started < MAX_PROCESSES,
        "{started} children started: {detail}"
    );
}
