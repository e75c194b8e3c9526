//! `byo grade` over the fixture submissions of `tests/fixtures/` (see its README): each
//! grades exactly as described, whatever the submission prints, exits or edits.
//!
//! Grading builds in the repository's `target/byo-grade/` from the committed tree, so
//! this test judges what is committed, as CI does on a fresh clone.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stage folders (`01-dataflow`, ...) that have a reference.
fn stage_folders() -> Vec<String> {
    let mut folders: Vec<String> = fs::read_dir(repo().join("solutions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        // Only stage references (`NN-slug`); solutions/ also holds crates that are no
        // stage (real-sinks), which have no learner counterpart to copy over.
        .filter(|f| f.len() > 2 && f.as_bytes()[..2].iter().all(u8::is_ascii_digit))
        .collect();
    folders.sort();
    folders
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            fs::create_dir_all(to).unwrap();
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

enum Base {
    Skeleton,
    /// The references' `src/` of the stages up to and including this one.
    ReferenceUpTo(u8),
}

fn submission(root: &Path, name: &str, base: Base, fixture: Option<&str>) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    if let Base::ReferenceUpTo(last) = base {
        for folder in stage_folders() {
            let number: u8 = folder[..2].parse().unwrap();
            if number <= last {
                let src = dir.join("stages").join(&folder).join("src");
                fs::create_dir_all(&src).unwrap();
                copy_tree(&repo().join("solutions").join(&folder).join("src"), &src);
            }
        }
    }
    if let Some(fixture) = fixture {
        copy_tree(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures")
                .join(fixture),
            &dir,
        );
    }
    dir
}

fn grade(args: &[&str]) {
    let output = Command::cargo_bin("byo")
        .unwrap()
        .env("BYO_ROOT", repo())
        .env("NO_COLOR", "1")
        .arg("grade")
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "byo grade failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn report(out: &Path, name: &str) -> Value {
    serde_json::from_slice(&fs::read(out.join(name).join("report.json")).unwrap()).unwrap()
}

fn stage(report: &Value, number: u64) -> &Value {
    report["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"] == number)
        .unwrap_or_else(|| panic!("stage {number} in {report:#}"))
}

fn verdict(report: &Value, number: u64) -> String {
    stage(report, number)["verdict"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The anomaly of `check` in stage `number`, or "passed".
fn check(report: &Value, number: u64, name: &str) -> String {
    let check = stage(report, number)["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("check {name} in {report:#}"))
        .clone();
    if check["passed"] == true {
        "passed".to_owned()
    } else {
        check["failure"]["anomaly"]
            .as_str()
            .unwrap_or("incomplete")
            .to_owned()
    }
}

fn listed(report: &Value, kind: &str, needle: &str) -> bool {
    report["files"][kind]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f.as_str().unwrap().contains(needle))
}

/// `report` with the lines that differ from run to run (paths, commit, lock hash,
/// toolchain, timings) elided as `[..]`, as `tests/expected/*.report.md` holds them.
fn elide(report: &str) -> String {
    const VARYING: [&str; 5] = [
        "- submission:",
        "- grader revision:",
        "- Cargo.lock (git blob):",
        "- toolchain:",
        "- grading time:",
    ];
    report
        .split('\n')
        .map(|line| {
            if let Some(key) = VARYING.iter().find(|k| line.starts_with(**k)) {
                format!("{key} [..]")
            } else if line.starts_with("| stage ") && line.ends_with(" s |") {
                let kept = line.trim_end_matches(" |");
                let cut = kept.rfind('|').map_or(0, |i| i + 1);
                format!("{} [..] |", &kept[..cut])
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn fixture_submissions_grade_as_described() {
    let scratch = std::env::temp_dir().join(format!("byo-grade-fixtures-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    let subs = scratch.join("submissions");
    let untouched = submission(&subs, "untouched", Base::Skeleton, Some("untouched"));
    let compile = submission(
        &subs,
        "compile-error-03",
        Base::ReferenceUpTo(3),
        Some("compile-error-03"),
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

    let out = scratch.join("out");
    let dirs: Vec<String> = [
        &untouched, &compile, &panic, &endless, &exit, &fake, &edits, &symlink,
    ]
    .iter()
    .map(|d| d.display().to_string())
    .collect();
    let mut args: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let out_arg = out.display().to_string();
    args.extend([
        "--out",
        &out_arg,
        "--seed",
        "42",
        "--stages",
        "01,02,03",
        "--timeout",
        "2",
        "--gradescope",
        "--junit",
    ]);
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

    let pinned =
        fs::read_to_string(repo().join("graders/tests/expected/exit-at-start.report.md")).unwrap();
    let written = fs::read_to_string(out.join("exit-at-start/report.md")).unwrap();
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
    assert!(csv.starts_with("submission,01,02,03,total\n"), "{csv}");
    assert_eq!(csv.lines().count(), 9, "{csv}");
    assert!(out.join("panic-in-one-case/results.json").exists());
    assert!(out.join("panic-in-one-case/junit.xml").exists());
    let cohort = fs::read_to_string(out.join("cohort.md")).unwrap();
    // Two submissions exit early in stage 01's `run`, and again in stage 02's `word_count`,
    // which calls it.
    assert!(cohort.contains("| early exit | 4 |"), "{cohort}");

    // Every stage, solved: full marks.
    let all = submission(&subs, "all-correct", Base::ReferenceUpTo(8), None);
    let out_all = scratch.join("out-all");
    grade(&[
        &all.display().to_string(),
        "--out",
        &out_all.display().to_string(),
        "--seed",
        "43",
    ]);
    let r = report(&out_all, "all-correct");
    for s in r["stages"].as_array().unwrap() {
        if s["verdict"] != "no-grader" {
            assert_eq!(s["verdict"], "passed", "{s:#}");
        }
    }
    assert_eq!(r["total"], 100.0, "{r:#}");
    let _ = fs::remove_dir_all(&scratch);
}
