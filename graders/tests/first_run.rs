//! The README's first command, `cargo byo start 01`, in a fresh copy of the repository
//! (an empty target folder), its standard error a plain pipe: within 2 s it says what it
//! is doing, then counts cargo's build steps as they finish, and the counts are cargo's
//! own; a warm run says nothing; and the build heartbeat of a stage counts the crates
//! cargo compiled.
//!
//! A first build takes minutes, so the test runs only with `BYO_FIRST_RUN_TEST=1`
//! (`.ci/run` sets it).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How soon the first line must come (the launcher compiles first, then speaks).
const FIRST_LINE_WITHIN: Duration = Duration::from_secs(2);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's files as a fresh clone has them (uncommitted edits included), in
/// `into`; no `target/`.
fn clone_into(into: &Path) {
    let listed = Command::new("git")
        .current_dir(repo())
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output()
        .expect("git lists the repository's files");
    assert!(listed.status.success(), "{listed:?}");
    for name in listed.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).unwrap();
        let (from, to) = (repo().join(name), into.join(name));
        if from.is_file() {
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&from, &to).unwrap();
        }
    }
}

/// `cargo` with `args` in `kata`, as a learner's shell would start it.
fn cargo(kata: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(kata)
        .args(args)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("BYO_ROOT")
        .env("NO_COLOR", "1");
    command
}

/// Runs `command`; returns its success, standard output, and each line of standard error
/// with when it arrived.
fn run_timed(mut command: Command) -> (bool, String, Vec<(Duration, String)>) {
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let lines = std::thread::spawn(move || {
        stderr
            .lines()
            .map(|l| (started.elapsed(), l.unwrap()))
            .collect::<Vec<_>>()
    });
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    (output.status.success(), stdout, lines.join().unwrap())
}

/// `(done, total)` of a count line: `byo: 12 of 89 build steps, 40 s`.
fn count(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("byo: ")?;
    let (done, rest) = rest.split_once(" of ")?;
    let (total, _) = rest.split_once(" build steps")?;
    Some((done.parse().ok()?, total.parse().ok()?))
}

/// `(crates compiled, build steps)` of the last line: `byo: the kata's tools are built
/// (75 crates compiled, 89 build steps, 212 s); later runs skip this`.
fn built(line: &str) -> Option<(usize, usize)> {
    let rest = line.strip_prefix("byo: the kata's tools are built (")?;
    let (compiled, rest) = rest.split_once(" crates compiled, ")?;
    let (steps, rest) = rest.split_once(" build steps, ")?;
    rest.ends_with(" s); later runs skip this")
        .then_some((compiled.parse().ok()?, steps.parse().ok()?))
}

/// Counts cargo's JSON `messages`: crates it compiled (not `fresh`), every crate, and
/// build scripts run.
fn tally(messages: &str) -> (usize, usize, usize) {
    let (mut compiled, mut crates, mut scripts) = (0, 0, 0);
    for message in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(message) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-artifact") => {
                crates += 1;
                compiled += usize::from(message["fresh"] == false);
            }
            Some("build-script-executed") => scripts += 1,
            _ => {}
        }
    }
    (compiled, crates, scripts)
}

#[test]
fn the_first_command_speaks_at_once_and_counts_what_cargo_builds() {
    if std::env::var_os("BYO_FIRST_RUN_TEST").is_none() {
        eprintln!("skipped: a first build takes minutes; BYO_FIRST_RUN_TEST=1 runs it");
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let kata = scratch.path().join("kata");
    clone_into(&kata);

    let (ok, stdout, stderr) = run_timed(cargo(&kata, &["byo", "start", "01"]));
    let shown: Vec<String> = stderr
        .iter()
        .map(|(at, l)| format!("{:6.1} s  {l}", at.as_secs_f64()))
        .collect();
    let shown = shown.join("\n");
    eprintln!("the first run's standard error:\n{shown}");
    assert!(
        ok && stdout.starts_with("# Stage 01 · dataflow"),
        "{stdout}\n{shown}"
    );
    let (first_at, first) = &stderr[0];
    assert_eq!(
        first,
        "byo: building the kata's tools with cargo (first run only, a few minutes)"
    );
    assert!(*first_at <= FIRST_LINE_WITHIN, "{shown}");

    // A live count: cargo's steps, never backwards, of one total, a line at least
    // every half minute while it builds.
    let counts: Vec<(usize, usize)> = stderr.iter().filter_map(|(_, l)| count(l)).collect();
    assert!(counts.len() >= 2, "{shown}");
    let total = counts[0].1;
    assert!(counts.iter().all(|&(_, t)| t == total), "{shown}");
    assert!(counts.windows(2).all(|w| w[0].0 <= w[1].0), "{shown}");
    assert!(
        stderr
            .windows(2)
            .all(|w| w[1].0 - w[0].0 < Duration::from_secs(30)),
        "{shown}"
    );

    // The counts are cargo's own: every unit of the build, each crate compiled.
    let build = [
        "build",
        "-p",
        "graders",
        "--bin",
        "byo",
        "--message-format=json",
    ];
    let again = cargo(&kata, &build).output().unwrap();
    let (recompiled, crates, scripts) = tally(&String::from_utf8(again.stdout).unwrap());
    assert_eq!(recompiled, 0, "the first run left byo built");
    assert_eq!(total, crates + scripts, "{shown}");
    let (_, last) = stderr.last().unwrap();
    assert_eq!(built(last), Some((crates, crates + scripts)), "{shown}");

    // A warm run says nothing on standard error.
    let started = Instant::now();
    let (ok, _, warm) = run_timed(cargo(&kata, &["byo", "start", "01"]));
    eprintln!(
        "a warm `cargo byo start 01`: {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert!(ok && warm.is_empty(), "{warm:?}");

    stage_heartbeat_counts_what_cargo_compiled(&kata);
}

/// After an edit of the learner's crate, the heartbeat's last line (when the build took
/// long enough to have one) counts what cargo compiles for that edit.
fn stage_heartbeat_counts_what_cargo_compiled(kata: &Path) {
    let source = kata.join("stages/01-dataflow/src/run.rs");
    let touch = || {
        let text = std::fs::read_to_string(&source).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&source, text).unwrap();
    };
    // The first test builds the stage's crates; the second, after an edit, is measured.
    cargo(kata, &["byo", "test", "01"]).output().unwrap();
    touch();
    let (_, _, stderr) = run_timed(cargo(kata, &["byo", "test", "01"]));
    touch();
    let grade = [
        "test",
        "--no-run",
        "--test",
        "grade",
        "--message-format=json",
        "--package",
        "stage01",
        "--features",
        "stage01/grade",
    ];
    let cargo_says = cargo(kata, &grade).output().unwrap();
    let (compiled, _, _) = tally(&String::from_utf8(cargo_says.stdout).unwrap());
    assert!(compiled >= 1, "an edit recompiles the learner's crate");
    let done = stderr
        .iter()
        .find_map(|(_, l)| l.strip_prefix("byo: cargo is done with stage(s) 01: "));
    match done {
        Some(done) => assert!(
            done.starts_with(&format!("{compiled} crate")),
            "cargo compiled {compiled}: {stderr:?}"
        ),
        None => eprintln!("the stage's build took under 2 s: its heartbeat stayed quiet"),
    }
}
