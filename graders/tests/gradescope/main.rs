//! `byo autograder gradescope`: the zip has the layout Gradescope's specification asks
//! for, and its scripts, run in a temporary `AUTOGRADER_ROOT`, grade submissions into a
//! `results.json` that follows Gradescope's documented schema.
//!
//! What this exercises, and what it does not:
//! - the zip is built with `--no-vendor` (vendoring every crate of the lock takes minutes
//!   and hundreds of MB); the layout test checks that the vendoring step is wired in
//!   `setup.sh`, and `graders/README.md` gives the size of a vendored zip;
//! - `setup.sh` runs with `BYO_SETUP_SKIP_SYSTEM=1`: this machine has the toolchain and
//!   bubblewrap, so apt and rustup are not run; the rest (commit the pristine kata, build
//!   `byo`, warm the grading target by grading the skeleton) runs as on Gradescope;
//! - the root is `target/gradescope-root` and keeps its kata's `target/` between runs,
//!   as Gradescope's image keeps what `setup.sh` built, so only the first run is cold;
//! - stages 01 and 08 only (`--stages 01,08`), to keep the test to a few minutes.

mod schema;
mod submission;
mod uploads;

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use schema::{check_points, check_schema};
use submission::submission;

/// The kata's root, which holds this crate.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn gradescope(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_byo"))
        .env("BYO_ROOT", repo())
        .args([
            "autograder",
            "gradescope",
            "--no-vendor",
            "--stages",
            "01,08",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_zip_holds_the_scripts_at_its_root_and_the_kata_as_committed() {
    let out = tempfile::tempdir().unwrap();
    let made = gradescope(out.path(), &["--visibility", "after_due_date"]);
    assert!(made.status.success(), "{made:?}");
    let file = fs::File::open(out.path().join("autograder.zip")).unwrap();
    let mut zip = zip::ZipArchive::new(file).unwrap();
    let names: Vec<String> = zip.file_names().map(str::to_owned).collect();
    for script in ["setup.sh", "run_autograder"] {
        let mut entry = zip.by_name(script).unwrap();
        assert_eq!(
            entry.unix_mode().map(|m| m & 0o777),
            Some(0o755),
            "{script}"
        );
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        assert!(text.starts_with("#!/usr/bin/env bash\n"), "{script}");
        for placeholder in ["@STAGES@", "@TOOLCHAIN@", "@ALLOW_UNCONFINED@"] {
            assert!(!text.contains(placeholder), "{script} keeps {placeholder}");
        }
        assert!(
            text.contains("--stages 01,08"),
            "{script} grades the stages asked"
        );
        assert!(text.contains("AUTOGRADER_ROOT:-/autograder"), "{script}");
    }
    let mut setup = String::new();
    zip.by_name("setup.sh")
        .unwrap()
        .read_to_string(&mut setup)
        .unwrap();
    assert!(
        setup.contains("--default-toolchain \"1.89\""),
        "pinned to rust-version"
    );
    assert!(
        setup.contains("replace-with = \"byo-vendored\""),
        "vendoring is wired"
    );
    for kept in [
        "kata/Cargo.toml",
        "kata/Cargo.lock",
        "kata/.cargo/config.toml",
        "kata/graders/src/lib.rs",
        "kata/solutions/08-transactional-sink/src/runner.rs",
        "kata/stages/08-transactional-sink/src/lib.rs",
    ] {
        assert!(names.iter().any(|n| n == kept), "{kept} is missing");
    }
    assert!(!names.iter().any(|n| n.starts_with("kata/target/")));
    assert!(
        !names.iter().any(|n| n.starts_with("vendor/")),
        "--no-vendor"
    );

    let again = gradescope(out.path(), &[]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
}

fn sandbox_available() -> bool {
    match graders::harness::sandbox::Sandbox::check_available() {
        Ok(()) => true,
        Err(e) if std::env::var_os("BYO_SANDBOX_REQUIRED").is_some() => {
            panic!("BYO_SANDBOX_REQUIRED is set, but: {e:#}")
        }
        Err(e) => {
            eprintln!("SKIPPED: run_autograder grades in the sandbox: {e:#}");
            false
        }
    }
}

fn script(root: &Path, name: &str) -> Output {
    Command::new("bash")
        .arg(root.join("source").join(name))
        .env("AUTOGRADER_ROOT", root)
        .env("BYO_SETUP_SKIP_SYSTEM", "1")
        .env_remove("BYO_ROOT")
        .env_remove("CARGO_TARGET_DIR")
        .current_dir(root)
        .output()
        .unwrap()
}

#[test]
fn run_autograder_grades_the_reference_the_skeleton_and_an_attack() {
    if !sandbox_available() {
        return;
    }
    let root = repo().join("target/gradescope-root");
    let kept = root.join("source/kata/target");
    if root.exists() {
        for entry in fs::read_dir(&root).unwrap() {
            let path = entry.unwrap().path();
            if path != root.join("source") {
                fs::remove_dir_all(&path).unwrap();
            }
        }
        // Everything the zip brings is replaced; the kata's target/ stays warm.
        for entry in fs::read_dir(root.join("source")).unwrap() {
            let path = entry.unwrap().path();
            if path != root.join("source/kata") {
                fs::remove_dir_all(&path)
                    .or_else(|_| fs::remove_file(&path))
                    .unwrap();
            }
        }
        for entry in fs::read_dir(root.join("source/kata")).unwrap() {
            let path = entry.unwrap().path();
            if path != kept {
                fs::remove_dir_all(&path)
                    .or_else(|_| fs::remove_file(&path))
                    .unwrap();
            }
        }
    }
    let out = tempfile::tempdir().unwrap();
    let made = gradescope(out.path(), &["--visibility", "after_due_date"]);
    assert!(made.status.success(), "{made:?}");
    let zip = fs::File::open(out.path().join("autograder.zip")).unwrap();
    zip::ZipArchive::new(zip)
        .unwrap()
        .extract(root.join("source"))
        .unwrap();

    let setup = script(&root, "setup.sh");
    assert!(
        setup.status.success(),
        "setup.sh:\n{}\n{}",
        String::from_utf8_lossy(&setup.stdout),
        String::from_utf8_lossy(&setup.stderr)
    );

    // (name, over the references, fixture, expected score)
    let cases = [
        ("reference", true, None, 100.0),
        ("untouched", false, None, 0.0),
        ("attack-path", false, Some("attack-path"), 0.0),
        // 08 skips its idea (returns its input): a gate fails, and the checks it passes
        // read as earning nothing.
        ("returns-input-08", true, Some("returns-input-08"), 50.0),
    ];
    for (name, references, fixture, expected) in cases {
        for dir in ["submission", "results"] {
            let _ = fs::remove_dir_all(root.join(dir));
        }
        submission(&root.join("submission"), references, fixture);
        let run = script(&root, "run_autograder");
        let log = format!(
            "{name}:\n{}\n{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(run.status.success(), "{log}");
        let text = fs::read_to_string(root.join("results/results.json"))
            .unwrap_or_else(|e| panic!("no results.json ({e}): {log}"));
        let results: Value = serde_json::from_str(&text).unwrap();
        check_schema(&results);
        assert_eq!(results["score"].as_f64(), Some(expected), "{name}: {log}");
        check_points(&results, 100.0);
        let tests = results["tests"].as_array().unwrap();
        for test in tests {
            assert_eq!(test["visibility"], "after_due_date", "{name}: {test}");
            assert_eq!(test["output_format"], "text", "{name}: {test}");
        }
        assert_eq!(results["visibility"], "after_due_date", "{name}");
        let passed = tests.iter().filter(|t| t["status"] == "passed").count();
        match name {
            "reference" => assert_eq!(passed, tests.len(), "{name}: {text}"),
            "returns-input-08" => {
                for test in tests {
                    let stage08 = test["name"].as_str().unwrap().starts_with("stage 08");
                    let zeroed = test["name"].as_str().unwrap().contains("earns nothing");
                    assert_eq!(test["status"] == "passed", !stage08, "{test}");
                    if stage08 {
                        assert_eq!(test["score"], 0.0, "{test}");
                        // What the shortcut fails is failed; what it passes earns nothing.
                        let shortcut = graders::cli::grade::score::loopholes::SHORTCUTS[0];
                        let name = test["name"].as_str().unwrap();
                        let failed = shortcut.fails.iter().any(|f| name.ends_with(f));
                        assert_eq!(zeroed, !failed, "{test}");
                    }
                }
            }
            _ => assert_eq!(passed, 0, "{name}: {text}"),
        }
        assert!(
            results["output"].as_str().unwrap().contains("--seed"),
            "{name}: the replay line"
        );
        let root_text = root.canonicalize().unwrap().display().to_string();
        assert!(
            !text.contains(&root_text),
            "{name}: no absolute path: {text}"
        );
        if name == "attack-path" {
            // The attack's reach for the reference is refused; the instructor's log says so.
            assert!(
                log.contains("Refused (1)") && log.contains("lib.rs"),
                "{log}"
            );
        }
    }
    uploads::uploads_that_cannot_be_graded_say_why(&root);
}
