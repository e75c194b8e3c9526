//! Ctrl-C during `byo grade`: every build and driver it started stops with it, and the
//! grading folder's lock goes too, so the next run starts at once.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The reference's stage 01 with `run` looping forever when resumed at offset 5.
fn looping_submission(root: &Path) -> PathBuf {
    let dir = root.join("looping");
    let src = dir.join("stages/01-dataflow/src");
    std::fs::create_dir_all(&src).unwrap();
    for entry in std::fs::read_dir(repo().join("solutions/01-dataflow/src")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), src.join(entry.file_name())).unwrap();
    }
    std::fs::copy(
        repo().join("graders/tests/fixtures/endless-loop/stages/01-dataflow/src/run.rs"),
        src.join("run.rs"),
    )
    .unwrap();
    dir
}

fn drivers_left(grading: &Path) -> String {
    let output = Command::new("pgrep")
        .args(["-af", &grading.join("target").display().to_string()])
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn an_interrupt_stops_every_child_and_leaves_no_lock() {
    let scratch = tempfile::tempdir().unwrap();
    let submission = looping_submission(scratch.path());
    let grading = std::fs::canonicalize(repo())
        .unwrap()
        .join("target/byo-grade");
    let byo = assert_cmd::cargo::cargo_bin("byo");
    let mut child = Command::new(&byo)
        .env("BYO_ROOT", repo())
        .env("NO_COLOR", "1")
        .args(["grade", "--stages", "01", "--timeout", "120", "--out"])
        .arg(scratch.path().join("out"))
        .arg(&submission)
        // The sandbox is not what this tests: byo itself must end what it started.
        .arg("--no-sandbox")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the driver is judging (and so looping), then interrupt.
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in stderr.by_ref() {
        let line = line.unwrap();
        let judging = line.contains("judging");
        seen.push(line);
        if judging {
            break;
        }
    }
    // Keep reading what byo says, so that it never writes into a closed pipe.
    let rest = std::thread::spawn(move || stderr.map_while(Result::ok).collect::<Vec<_>>());
    assert!(
        seen.last().is_some_and(|l| l.contains("judging")),
        "byo grade got to judging: {seen:?}"
    );
    // The looping case comes after the first cases; give the driver a moment to reach it.
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = child.wait().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "byo stopped promptly"
    );
    assert_eq!(status.code(), Some(130), "interrupted: {status}");
    let said = rest.join().unwrap();
    assert!(
        said.iter().any(|l| l.contains("interrupted")),
        "byo says it was interrupted: {said:?}"
    );
    assert_eq!(
        drivers_left(&grading),
        "",
        "no driver or build outlives byo"
    );

    // The lock went with the process: another run starts (and grades) at once.
    let again = Command::new(&byo)
        .env("BYO_ROOT", repo())
        .args([
            "grade",
            "--stages",
            "01",
            "--timeout",
            "2",
            "--no-sandbox",
            "--out",
        ])
        .arg(scratch.path().join("out"))
        .arg(&submission)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}
