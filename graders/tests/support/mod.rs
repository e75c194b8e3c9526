//! What the `byo grade` tests share: making fixture submissions, running `byo grade`,
//! and reading the reports it writes.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stage folders (`01-dataflow`, ...) that have a reference.
pub fn stage_folders() -> Vec<String> {
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

pub fn copy_tree(from: &Path, to: &Path) {
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

pub enum Base {
    Skeleton,
    /// The references' `src/` of the stages up to and including this one.
    ReferenceUpTo(u8),
}

pub fn submission(root: &Path, name: &str, base: Base, fixture: Option<&str>) -> PathBuf {
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

pub fn grade(args: &[&str]) {
    grade_with_env(args, &[]);
}

/// `byo grade args`, with `env` added to its environment; it must succeed.
pub fn grade_with_env(args: &[&str], env: &[(&str, &str)]) {
    let output = Command::cargo_bin("byo")
        .unwrap()
        .envs(env.iter().copied())
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

pub fn report(out: &Path, name: &str) -> Value {
    serde_json::from_slice(&fs::read(out.join(name).join("report.json")).unwrap()).unwrap()
}

pub fn stage(report: &Value, number: u64) -> &Value {
    report["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"] == number)
        .unwrap_or_else(|| panic!("stage {number} in {report:#}"))
}

pub fn verdict(report: &Value, number: u64) -> String {
    stage(report, number)["verdict"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The anomaly of `check` in stage `number`, or "passed".
pub fn check(report: &Value, number: u64, name: &str) -> String {
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

pub fn listed(report: &Value, kind: &str, needle: &str) -> bool {
    report["files"][kind]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f.as_str().unwrap().contains(needle))
}
