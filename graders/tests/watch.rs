//! `byo watch` as a learner runs it, against a scratch kata whose stage 01 is a crate of a
//! few lines: a build error is shown and the watch goes on, a save judges again, `q`
//! quits with success; the first build says what it builds. Every wait has a deadline; nothing sleeps.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The longest any step may take on a loaded machine (a tiny crate's build).
const PATIENCE: Duration = Duration::from_secs(120);

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// A kata with only stage 01, whose grade "driver" exits without a word.
fn scratch_kata(dir: &Path) {
    write(
        dir,
        "Cargo.toml",
        "[workspace]\nresolver = \"3\"\nmembers = [\"stages/01-dataflow\"]\n",
    );
    fs::create_dir_all(dir.join("graders")).unwrap();
    write(
        dir,
        "stages/01-dataflow/Cargo.toml",
        "[package]\nname = \"stage01\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [features]\ngrade = []\n\n\
         [[test]]\nname = \"grade\"\npath = \"tests/grade.rs\"\nharness = false\n\
         required-features = [\"grade\"]\n",
    );
    write(dir, "stages/01-dataflow/tests/grade.rs", "fn main() {}\n");
    write(
        dir,
        "stages/01-dataflow/src/lib.rs",
        "pub fn f() -> u8 { not_defined }\n",
    );
}

/// Lines of the child's standard output until `wanted` appears; panics past [`PATIENCE`].
fn until(lines: &Receiver<String>, wanted: &str) -> Vec<String> {
    let deadline = Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(wanted);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(e) => panic!("no `{wanted}` ({e}); saw:\n{}", seen.join("\n")),
        }
    }
}

#[test]
fn watch_shows_a_build_error_judges_again_on_save_and_quits_on_q() {
    let dir = tempfile::tempdir().unwrap();
    scratch_kata(dir.path());
    let stderr = fs::File::create(dir.path().join("stderr.txt")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_byo"))
        .args(["watch", "01"])
        .env("BYO_ROOT", dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                return;
            }
        }
    });

    let first = until(&lines, "cannot find value `not_defined`");
    assert!(
        first.iter().any(|l| l.contains("byo watch: stage 01")),
        "{first:?}"
    );
    assert!(
        first.iter().any(|l| l.contains("DOES NOT BUILD")),
        "{first:?}"
    );

    // The fix is saved: the watch is still there and judges the stage again.
    write(
        dir.path(),
        "stages/01-dataflow/src/lib.rs",
        "pub fn f() -> u8 { 1 }\n",
    );
    let second = until(&lines, "byo watch: stage 01");
    let verdict = until(&lines, "stage 01");
    assert!(
        !second
            .iter()
            .chain(&verdict)
            .any(|l| l.contains("DOES NOT BUILD")),
        "{second:?} {verdict:?}"
    );

    child.stdin.take().unwrap().write_all(b"q").unwrap();
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        // Waits for the next line or the pipe's end rather than sleeping.
        let _ = lines.recv_timeout(Duration::from_millis(200));
        assert!(Instant::now() < deadline, "byo watch did not quit on q");
    };
    assert!(status.success(), "{status}");
    // Its target folder was new: the first build said at once what it builds and that it
    // is long, and at its end how many crates cargo compiled (none: it did not build).
    let said = fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
    assert!(
        said.starts_with("byo: building stage(s) 01 with cargo; the first build"),
        "{said}"
    );
    assert!(
        said.contains("byo: cargo is done with stage(s) 01: 0 crates compiled, "),
        "{said}"
    );
}
