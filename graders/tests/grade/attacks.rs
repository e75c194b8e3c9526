//! `byo grade` against submissions that attack it (`tests/fixtures/attack-*`, see the
//! fixtures' README): each attacker gets what its code earns and nothing more, the honest
//! submissions graded after it in the same run and in a later run get full marks, the
//! instructor's checkout and `--out` hold nothing but the reports, and no process of the
//! grading outlives it.
//!
//! Needs the sandbox (`bwrap`); skipped with a loud message where it cannot run, unless
//! `BYO_SANDBOX_REQUIRED` is set (CI sets it).

use std::fs;
use std::path::Path;
use std::process::Command;

use super::grade_with_env;
use super::reading::{check, listed, report, stage, verdict};
use super::submissions::{Base, repo, submission};

/// What the instructor's shell holds and no student may see.
const SECRET: &str = "hunter2-instructor-token";

pub(super) fn sandbox_available() -> bool {
    match graders::harness::sandbox::Sandbox::check_available() {
        Ok(()) => true,
        Err(e) if std::env::var_os("BYO_SANDBOX_REQUIRED").is_some() => {
            panic!("BYO_SANDBOX_REQUIRED is set, but: {e:#}")
        }
        Err(e) => {
            eprintln!("SKIPPED: byo grade's attack tests need the sandbox: {e:#}");
            false
        }
    }
}

/// Every file under `dir` whose name contains `needle`.
pub(super) fn files_named(dir: &Path, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(path);
            } else if entry.file_name().to_string_lossy().contains(needle) {
                found.push(path.display().to_string());
            }
        }
    }
    found
}

fn leftover(marker: &str) -> String {
    let output = Command::new("pgrep")
        .args(["-af", marker])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn git_status() -> String {
    let output = Command::new("git")
        .current_dir(repo())
        .args(["status", "--porcelain", "--untracked-files=all"])
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn attackers_get_what_they_earn_and_honest_work_gets_full_marks() {
    if !sandbox_available() {
        return;
    }
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let before = git_status();
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let mut dirs = Vec::new();
    for (name, base, fixture) in [
        (
            "attack-vandal",
            Base::ReferenceUpTo(1),
            Some("attack-vandal"),
        ),
        ("honest-after-vandal", Base::ReferenceUpTo(1), None),
        (
            "attack-detached",
            Base::ReferenceUpTo(1),
            Some("attack-detached"),
        ),
        ("attack-flaky", Base::ReferenceUpTo(1), Some("attack-flaky")),
        (
            "attack-stderr-forever",
            Base::ReferenceUpTo(1),
            Some("attack-stderr-forever"),
        ),
        ("attack-env", Base::ReferenceUpTo(1), Some("attack-env")),
        ("attack-flood", Base::ReferenceUpTo(1), Some("attack-flood")),
        ("attack-clock", Base::ReferenceUpTo(1), Some("attack-clock")),
        (
            "attack-const-eval",
            Base::ReferenceUpTo(1),
            Some("attack-const-eval"),
        ),
        ("attack-path", Base::Skeleton, Some("attack-path")),
        (
            "attack-disguised-copy",
            Base::Skeleton,
            Some("attack-disguised-copy"),
        ),
        ("honest-last", Base::ReferenceUpTo(1), None),
    ] {
        dirs.push(submission(&subs, name, base, fixture).display().to_string());
    }
    let out = scratch.path().join("out");
    let out_arg = out.display().to_string();
    let mut args: Vec<&str> = dirs.iter().map(String::as_str).collect();
    args.extend([
        "--out",
        &out_arg,
        "--seed",
        "7",
        "--stages",
        "01",
        "--timeout",
        "2",
        "--build-timeout",
        "60",
    ]);
    grade_with_env(&args, &[("BYO_TEST_SECRET", SECRET)]);

    // Nothing the grading started is still running.
    for marker in ["byo-attack-detached-marker", "byo-attack-noise-marker"] {
        assert_eq!(leftover(marker), "", "a process of the grading outlived it");
    }

    for honest in [
        "honest-after-vandal",
        "honest-last",
        "attack-vandal",
        "attack-detached",
    ] {
        let r = report(&out, honest);
        assert_eq!(verdict(&r, 1), "passed", "{honest}: {r:#}");
        assert_eq!(r["total"], 100.0, "{honest}");
    }
    for noisy in ["attack-stderr-forever", "attack-flood"] {
        assert_eq!(verdict(&report(&out, noisy), 1), "passed", "{noisy}");
    }

    // Which check's cases come past the 60th call depends on the plan; every failure
    // is the nondeterministic one.
    let r = report(&out, "attack-flaky");
    let anomalies: Vec<String> = ["seek", "seek-past-end", "chain", "crash"]
        .iter()
        .map(|name| check(&r, 1, name))
        .filter(|a| a != "passed")
        .collect();
    assert!(
        !anomalies.is_empty() && anomalies.iter().all(|a| a == "nondeterministic"),
        "{anomalies:?}: {r:#}"
    );
    assert!((r["total"].as_f64().expect("a total")) < 100.0);

    let r = report(&out, "attack-env");
    assert_eq!(check(&r, 1, "chain"), "panic");
    for file in files_named(&out, "") {
        let text = fs::read_to_string(&file).unwrap_or_default();
        assert!(
            !text.contains(SECRET),
            "{file} shows the instructor's environment"
        );
    }

    let r = report(&out, "attack-clock");
    assert_eq!(check(&r, 1, "chain"), "time-out", "{r:#}");

    let r = report(&out, "attack-const-eval");
    assert_eq!(verdict(&r, 1), "does-not-build", "{r:#}");
    let errors = stage(&r, 1)["errors"].as_str().expect("errors").to_owned();
    assert!(errors.contains("time limit"), "{errors}");

    let r = report(&out, "attack-path");
    assert!(
        listed(&r, "refused", "stages/01-dataflow/src/lib.rs"),
        "{r:#}"
    );
    assert_eq!(verdict(&r, 1), "not-started");

    // A copy with a field renamed, an item added and a `println!` per file still works,
    // and is still flagged as the reference's.
    let r = report(&out, "attack-disguised-copy");
    assert_eq!(verdict(&r, 1), "passed", "{r:#}");
    assert!(
        r["files"]["copies_of_reference"][0]
            .as_str()
            .is_some_and(|c| c.starts_with("01-dataflow")),
        "a disguised copy of the reference is flagged: {r:#}"
    );

    let r = report(&out, "honest-last");
    assert!(
        r["files"]["copies_of_reference"][0]
            .as_str()
            .is_some_and(|c| c.starts_with("01-dataflow")),
        "a verbatim copy of the reference is flagged: {r:#}"
    );

    // The vandal reached nothing: not the grading workspace, the pristine tree, the
    // target folder, the checkout, --out, or the other submissions.
    for dir in [repo().as_path(), scratch.path()] {
        assert_eq!(
            files_named(dir, "POISONED-by-attack-vandal"),
            Vec::<String>::new()
        );
    }
    assert_eq!(
        git_status(),
        before,
        "the instructor's checkout is unchanged"
    );
    let csv = fs::read_to_string(out.join("grades.csv")).expect("a gradebook");
    assert!(
        // The seed column holds each submission's own plan seed.
        csv.lines()
            .any(|l| l.starts_with("honest-after-vandal,mastered,") && l.contains(",100.0,100.0,")),
        "{csv}"
    );
    let mut outputs: Vec<String> = fs::read_dir(&out)
        .expect("out")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    outputs.sort();
    let mut expected: Vec<String> = dirs
        .iter()
        .map(|d| {
            Path::new(d)
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .chain(
            [
                ".byo-grade",
                "cohort.html",
                "cohort.md",
                "grades.csv",
                "grades.json",
            ]
            .map(String::from),
        )
        .collect();
    expected.sort();
    assert_eq!(
        outputs, expected,
        "--out holds the reports and nothing else"
    );

    // A later, separate run: an honest submission still gets full marks.
    let out_later = scratch.path().join("out-later");
    let later = submission(&subs, "honest-later", Base::ReferenceUpTo(1), None);
    grade_with_env(
        &[
            &later.display().to_string(),
            "--out",
            &out_later.display().to_string(),
            "--stages",
            "01",
        ],
        &[],
    );
    assert_eq!(report(&out_later, "honest-later")["total"], 100.0);
}
