//! Grading in parallel: `--jobs 2` writes the same reports as `--jobs 1`, and a run in
//! progress over one submission does not refuse another run over other submissions.

use std::ffi::OsString;
use std::fs;
use std::path::Path;

use graders::cli::grade::confine::lock::{FileLock, submission_lock_path};
use serde_json::Value;

use super::reading::{report, verdict};
use super::submissions::{Base, repo, submission};
use super::{GRADING, byo_grade, grade};

/// A report with what differs from run to run taken out: timings and the date.
fn without_timings(mut value: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("seconds");
                map.remove("graded_at");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

fn args(subs: &[&Path], out: &Path, rest: &[&str]) -> Vec<OsString> {
    let mut args: Vec<OsString> = subs.iter().map(|s| s.as_os_str().to_owned()).collect();
    args.extend(["--out".into(), out.as_os_str().to_owned()]);
    args.extend(rest.iter().map(OsString::from));
    args
}

#[test]
fn two_jobs_grade_as_one() {
    let _one_at_a_time = GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::Builder::new()
        .prefix("byo-grade-jobs-")
        .tempdir()
        .unwrap();
    let subs = scratch.path().join("submissions");
    let names = ["exit-at-start", "endless-loop", "untouched"];
    let paths: Vec<_> = names
        .iter()
        .map(|name| {
            let base = if *name == "untouched" {
                Base::Skeleton
            } else {
                Base::ReferenceUpTo(2)
            };
            submission(&subs, name, base, Some(name))
        })
        .collect();
    let paths: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    // One salt for both runs: with fresh ones, their plans would differ.
    let common = [
        "--seed",
        "45",
        "--salt",
        "3",
        "--stages",
        "01,02",
        "--timeout",
        "2",
    ];
    let (one, two) = (scratch.path().join("one"), scratch.path().join("two"));
    grade(&args(
        &paths,
        &one,
        &[&common[..], &["--jobs", "1"]].concat(),
    ));
    grade(&args(
        &paths,
        &two,
        &[&common[..], &["--jobs", "2"]].concat(),
    ));
    for name in names {
        assert_eq!(
            without_timings(report(&one, name)),
            without_timings(report(&two, name)),
            "{name}: --jobs 1 and --jobs 2 differ"
        );
    }
    // Judged over the learner's own 01 too, in both runs alike (compared above).
    assert_eq!(
        report(&two, "exit-at-start")["stages"][1]["over_your_stages"]["verdict"],
        "failed"
    );
    let csv = |out: &Path| fs::read_to_string(out.join("grades.csv")).unwrap();
    assert_eq!(csv(&one), csv(&two));
}

#[test]
fn a_run_in_progress_refuses_only_its_own_submissions() {
    let _one_at_a_time = GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::Builder::new()
        .prefix("byo-grade-locks-")
        .tempdir()
        .unwrap();
    let subs = scratch.path().join("submissions");
    let alice = submission(&subs, "alice", Base::ReferenceUpTo(1), None);
    let bob = submission(&subs, "bob", Base::ReferenceUpTo(1), None);
    let out = scratch.path().join("out");
    let stage01 = ["--seed", "46", "--stages", "01"];

    // Another run, in the middle of grading alice in the first slot.
    let work = repo().join("target/byo-grade");
    let other_slot = FileLock::try_take(&work.join("slot-0/lock")).unwrap();
    let other_alice = FileLock::try_take(&submission_lock_path(&work, &alice)).unwrap();
    assert!(
        other_slot.is_some() && other_alice.is_some(),
        "no other byo grade runs here now"
    );
    let run = byo_grade(&args(&[&alice, &bob], &out, &stage01), &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success(),
        "alice was not graded, so the run says grading did not all work: {stderr}"
    );
    assert!(
        stderr.contains("alice: another byo grade is grading this submission right now"),
        "{stderr}"
    );
    assert!(
        !out.join("alice").exists(),
        "the other run's report is its own"
    );
    assert_eq!(verdict(&report(&out, "bob"), 1), "passed");

    // Two runs at once over different submissions, into one --out: neither refuses the
    // other, and the gradebook has both.
    drop((other_slot, other_alice));
    let runs: Vec<_> = [&alice, &bob]
        .map(|sub| {
            let args = args(&[sub], &out, &stage01);
            std::thread::spawn(move || byo_grade(&args, &[]))
        })
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    for run in &runs {
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let csv = fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(
        csv.contains("\nalice,mastered,") && csv.contains("\nbob,mastered,"),
        "{csv}"
    );
}
