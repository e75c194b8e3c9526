//! `byo grade` over the fixture submissions of `tests/fixtures/` (see its README): each
//! grades exactly as described, whatever the submission prints, exits or edits.
//!
//! Grading builds in the repository's `target/byo-grade/` from the committed tree, so
//! this test judges what is committed, as CI does on a fresh clone.

mod attacks;
mod authority;
mod inert;
mod limits;
mod oracle_copy;
mod parallel;
mod ranking;
mod reach_outs;
mod reading;
mod regrade;
mod submissions;

use std::ffi::{OsStr, OsString};
use std::fs;

use assert_cmd::Command;

use reading::{check, elide, listed, report, stage, verdict};
use submissions::{Base, odd_names, repo, submission};

/// One `byo grade` at a time: they share the repository's grading folder and its lock.
static GRADING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn grade<S: AsRef<OsStr>>(args: &[S]) {
    grade_with_env(args, &[]);
}

/// `byo grade args`, with `env` added to its environment; it must succeed.
fn grade_with_env<S: AsRef<OsStr>>(args: &[S], env: &[(&str, &str)]) {
    let output = byo_grade(args, env);
    assert!(
        output.status.success(),
        "byo grade failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `byo grade args`, with `env` added to its environment, however it ends.
fn byo_grade<S: AsRef<OsStr>>(args: &[S], env: &[(&str, &str)]) -> std::process::Output {
    Command::cargo_bin("byo")
        .unwrap()
        .envs(env.iter().copied())
        .env("BYO_ROOT", repo())
        .env("NO_COLOR", "1")
        .arg("grade")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn fixture_submissions_grade_as_described() {
    let _one_at_a_time = GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::Builder::new()
        .prefix("byo-grade-fixtures-")
        .tempdir()
        .unwrap();
    let scratch = scratch.path();
    let subs = scratch.join("submissions");
    let untouched = submission(&subs, "untouched", Base::Skeleton, Some("untouched"));
    let compile = submission(
        &subs,
        "compile-error-03",
        Base::ReferenceUpTo(3),
        Some("compile-error-03"),
    );
    let compile_01 = submission(
        &subs,
        "compile-error-01",
        Base::ReferenceUpTo(3),
        Some("compile-error-01"),
    );
    let panic = submission(
        &subs,
        "panic-in-one-case",
        Base::ReferenceUpTo(3),
        Some("panic-in-one-case"),
    );
    let endless = submission(
        &subs,
        "endless-loop",
        Base::ReferenceUpTo(3),
        Some("endless-loop"),
    );
    let exit = submission(
        &subs,
        "exit-at-start",
        Base::ReferenceUpTo(3),
        Some("exit-at-start"),
    );
    let fake = submission(
        &subs,
        "fake-summary",
        Base::ReferenceUpTo(3),
        Some("fake-summary"),
    );
    let edits = submission(
        &subs,
        "edits-graders",
        Base::Skeleton,
        Some("edits-graders"),
    );
    let symlink = submission(&subs, "symlink-outside", Base::ReferenceUpTo(3), None);
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        "/etc/passwd",
        symlink.join("stages/01-dataflow/src/evil.rs"),
    )
    .unwrap();

    // A folder of notes, not a copy of the kata, and a file: not submissions.
    let notes = subs.join("notes-only");
    fs::create_dir_all(&notes).unwrap();
    fs::write(notes.join("README.md"), "my notes").unwrap();
    let zip = subs.join("carol.zip");
    fs::write(&zip, "PK").unwrap();

    let out = scratch.join("out");
    let mut args: Vec<OsString> = [
        &untouched,
        &compile,
        &compile_01,
        &panic,
        &endless,
        &exit,
        &fake,
        &edits,
        &symlink,
        &notes,
        &zip,
    ]
    .iter()
    .map(|d| d.as_os_str().to_owned())
    .collect();
    args.push("--out".into());
    args.push(out.as_os_str().to_owned());
    args.extend(
        [
            "--seed",
            "42",
            // A known salt, so that the pinned report below is one plan's; a grading
            // run never has one (authority.rs shows why).
            "--salt",
            "0",
            "--stages",
            "01,02,03",
            "--timeout",
            "2",
            "--gradescope",
            "--junit",
        ]
        .map(OsString::from),
    );
    grade(&args);

    let r = report(&out, "untouched");
    for n in 1..=3 {
        assert_eq!(verdict(&r, n), "not-started", "untouched stage {n}");
    }
    assert_eq!(r["total"], 0.0);
    assert!(listed(&r, "ignored", "NOTE.md"));

    let r = report(&out, "compile-error-03");
    assert_eq!(
        (verdict(&r, 1), verdict(&r, 2)),
        ("passed".into(), "passed".into())
    );
    assert_eq!(verdict(&r, 3), "does-not-build");
    assert!(
        stage(&r, 3)["errors"].as_str().unwrap().contains("error"),
        "{r:#}"
    );

    // Stages judged on their own: 02 and 03 use 01, and pass over the reference 01; over
    // the learner's own 01 they would not build, and the report says so.
    let r = report(&out, "compile-error-01");
    assert_eq!(verdict(&r, 1), "does-not-build");
    for n in [2, 3] {
        assert_eq!(verdict(&r, n), "passed", "{r:#}");
        let over_yours = &stage(&r, n)["over_your_stages"];
        assert_eq!(over_yours["verdict"], "does-not-build", "{r:#}");
        assert_eq!(over_yours["uses"]["1"], "does-not-build", "{r:#}");
    }
    let md = fs::read_to_string(out.join("compile-error-01/report.md")).unwrap();
    assert!(
        md.contains(
            "- stage 02 · keyed-state passes over the reference 01; over your 01 (does not \
             build) it does not build."
        ),
        "{md}"
    );

    let r = report(&out, "panic-in-one-case");
    assert_eq!(check(&r, 1, "seek"), "passed");
    assert_eq!(check(&r, 1, "chain"), "panic");
    let detail = stage(&r, 1)["checks"][2]["failure"]["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(detail.contains("six records are too many"), "{detail}");

    let r = report(&out, "endless-loop");
    assert_eq!(check(&r, 1, "crash"), "time-out");
    assert_eq!(check(&r, 1, "chain"), "passed");
    // 02 uses 01: judged over the reference 01, it passes; over the learner's own 01 it
    // passes too (the loop is only met on resuming, which 02 never does).
    assert_eq!(verdict(&r, 2), "passed", "{r:#}");
    assert_eq!(
        stage(&r, 2)["over_your_stages"]["verdict"],
        "passed",
        "{r:#}"
    );

    let written = fs::read_to_string(out.join("exit-at-start/report.md")).unwrap();
    let pinned = reading::pinned("exit-at-start.report.md", &elide(&written));
    assert_eq!(elide(&written), pinned, "report.md of exit-at-start");

    for name in ["exit-at-start", "fake-summary"] {
        let r = report(&out, name);
        assert_eq!(verdict(&r, 1), "failed", "{name}");
        assert_eq!(check(&r, 1, "chain"), "early exit", "{name}");
    }

    let r = report(&out, "edits-graders");
    for file in [
        "graders/src/lib.rs",
        "stages/01-dataflow/tests/grade.rs",
        "stages/01-dataflow/Cargo.toml",
    ] {
        assert!(listed(&r, "ignored", file), "{file} is ignored: {r:#}");
    }
    assert_eq!(verdict(&r, 1), "not-started");

    let r = report(&out, "symlink-outside");
    if cfg!(unix) {
        assert!(
            listed(&r, "refused", "stages/01-dataflow/src/evil.rs"),
            "{r:#}"
        );
    }
    assert_eq!(verdict(&r, 1), "passed");

    let csv = fs::read_to_string(out.join("grades.csv")).unwrap();
    assert!(
        csv.starts_with(
            "submission,verdict,seed,01,02,03,total,copies_of_reference,copies_of_peers,\
             student_id,student_name,submitted_at,late_minutes\n"
        ),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 12, "{csv}");
    assert!(
        // The plan seed of --seed 42 under --salt 0.
        csv.contains("\nuntouched,not started,5592132763777985307,0.0,0.0,0.0,0.0,,,,,,\n"),
        "{csv}"
    );
    assert!(
        csv.contains("\ncarol.zip,not a submission,5592132763777985307,"),
        "{csv}"
    );
    // Two submissions made of the same references are copies of each other.
    assert!(
        csv.lines()
            .any(|l| l.starts_with("exit-at-start,") && l.contains("02:fake-summary")),
        "{csv}"
    );
    for name in ["notes-only", "carol.zip"] {
        let r = report(&out, name);
        assert!(
            r["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("not a submission")),
            "{name}: {r:#}"
        );
        assert_eq!(r["total"], 0.0);
    }
    assert!(out.join("panic-in-one-case/results.json").exists());
    assert!(out.join("panic-in-one-case/junit.xml").exists());
    let cohort = fs::read_to_string(out.join("cohort.md")).unwrap();
    // Two submissions exit early in stage 01's `run`: in `chain`, and again in `crash` and
    // in `contract`'s long log (which ends with a `run`), each judged by a fresh driver
    // after the exit before it. Stage 02's `word_count`, which calls it, is scored over the
    // reference 01 (only the reports say it exits over theirs).
    assert!(cohort.contains("| early exit | 6 |"), "{cohort}");

    // Every stage, solved: full marks, under names that are not UTF-8 (args_os).
    let (name, out_name) = odd_names();
    let all = submission(&subs, &name, Base::ReferenceUpTo(8), None);
    let out_all = scratch.join(out_name);
    grade(&[
        all.as_os_str(),
        OsStr::new("--out"),
        out_all.as_os_str(),
        OsStr::new("--seed"),
        OsStr::new("43"),
    ]);
    let r = report(&out_all, &all.file_name().unwrap().to_string_lossy());
    for s in r["stages"].as_array().unwrap() {
        if s["verdict"] != "no-grader" {
            assert_eq!(s["verdict"], "passed", "{s:#}");
        }
    }
    assert_eq!(r["total"], 100.0, "{r:#}");
}
