//! `byo grade` against submissions that spend what they must not: a fork bomb in a
//! driver stops at the sandbox's process limit, and a build that needs gigabytes (a 4 GiB
//! `static`) at the build's memory cap, a correct stage that sleeps in every call at the
//! stage's time budget, and one whose threads compute beside its answers at whichever
//! clock runs out first (its budget in CPU time, on a quiet machine); each is its own
//! submission's failure, while an honest submission graded after them keeps full marks.

use super::attacks::sandbox_available;
use super::grade;
use super::reading::{check, failures, report, stage};
use super::submissions::{Base, submission};
use graders::cli::grade::confine::pids::MAX_PROCESSES;
use graders::cli::grade::confine::{self, memory::BuildMemory};

#[test]
fn a_fork_bomb_a_huge_static_a_slow_stage_and_spinning_threads_stop_at_their_limits() {
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
    let huge = submission(
        &subs,
        "attack-huge-static",
        Base::ReferenceUpTo(1),
        Some("attack-huge-static"),
    );
    let slow = submission(
        &subs,
        "attack-slow",
        Base::ReferenceUpTo(1),
        Some("attack-slow"),
    );
    let spin = submission(
        &subs,
        "attack-spin",
        Base::ReferenceUpTo(1),
        Some("attack-spin"),
    );
    let honest = submission(&subs, "honest", Base::ReferenceUpTo(1), None);
    let out = scratch.path().join("out");
    grade(&[
        bomb.display().to_string(),
        huge.display().to_string(),
        slow.display().to_string(),
        spin.display().to_string(),
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

    // The build's own failure; where the kernel's count of the cap's kills can be read,
    // named as the memory limit (elsewhere rustc's own allocation error says so).
    let r = report(&out, "attack-huge-static");
    assert_eq!(stage(&r, 1)["verdict"], "does-not-build", "{r:#}");
    let errors = stage(&r, 1)["errors"].as_str().expect("errors").to_owned();
    if BuildMemory::detect() != BuildMemory::default() {
        assert!(errors.contains("memory limit of 4 GiB"), "{errors}");
    } else {
        assert!(errors.contains("memory"), "{errors}");
    }

    // Sixteen threads beside correct answers: stopped by whichever clock runs out first.
    // On a quiet machine that is the CPU clock. On a loaded one the kernel's autogroups
    // share the CPU by session, so a sandbox's threads get little more than one thread's
    // share: then the stage's wall clock comes first, or, when the spinners starve the
    // thread that answers, a case's own limit (a time-out, which its re-run alone may not
    // repeat). The supervisor's own test shows the CPU clock alone.
    let r = report(&out, "attack-spin");
    assert_eq!(stage(&r, 1)["verdict"], "failed", "{r:#}");
    let stopped_by_a_clock = stage(&r, 1)["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter_map(|c| c["failure"]["detail"].as_str())
        .any(|d| {
            d.contains("of CPU time")
                || d.contains("time budget of")
                || d.contains("no result within")
        });
    assert!(
        stopped_by_a_clock,
        "the spinning stage's failures:\n{}\nstage seconds: {}",
        failures(&r, 1),
        stage(&r, 1)["seconds"]
    );
    let took = stage(&r, 1)["seconds"].as_f64().expect("the stage's time");
    assert!(
        took < confine::budget::CEILING.as_secs_f64() / 2.0,
        "the spinning stage held its slot for {took} s"
    );

    // Cut off at its budget (at most FLOOR + 3 case limits here: stage 01's reference
    // takes well under a second), not after the minutes its naps add up to.
    let r = report(&out, "attack-slow");
    let kinds: Vec<&str> = stage(&r, 1)["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter_map(|c| c["failure"]["anomaly"].as_str())
        .collect();
    assert!(kinds.contains(&"too slow"), "{r:#}");
    // The stage itself, not the run (whose first builds take minutes on a cold slot).
    let took = stage(&r, 1)["seconds"].as_f64().expect("the stage's time");
    assert!(
        took < confine::budget::CEILING.as_secs_f64() / 2.0,
        "the slow stage held its slot for {took} s"
    );
}
