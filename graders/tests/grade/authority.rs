//! What a driver or a compiler says is evidence, never authority: a submission that
//! forges the driver's protocol lines with the nonce it stole from the driver's memory,
//! or whose compiler error reads as the grading machine's own failure, is charged to its
//! stage, and the run goes on and exits 0 (only the supervisor says the grading
//! environment failed). An honest submission graded beside them keeps full marks. And a
//! seed the student knows forges nothing: plans are salted afresh for every submission.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use graders::cli::grade::model::SeedDraw;
use graders::harness::protocol::{MARKER, REQUEST_ENV, Request};
use graders::stages::grader;

use super::grade;
use super::reading::{check, report, stage, verdict};
use super::submissions::{Base, repo, submission};

#[test]
fn forged_protocol_lines_and_imitated_failures_are_charged_to_their_stage() {
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let mut args: Vec<String> = [
        ("attack-forged-refused", Some("attack-forged-refused")),
        ("attack-second-answer", Some("attack-second-answer")),
        ("attack-compile-error-env", Some("attack-compile-error-env")),
        ("honest", None),
    ]
    .into_iter()
    .map(|(name, fixture)| {
        let dir = submission(&subs, name, Base::ReferenceUpTo(1), fixture);
        dir.display().to_string()
    })
    .collect();
    let out = scratch.path().join("out");
    args.extend(["--out".into(), out.display().to_string()]);
    args.extend(["--seed", "7", "--stages", "01", "--timeout", "2"].map(String::from));
    // `grade` asserts that `byo grade` exits 0: no environment failed.
    grade(&args);

    for forger in ["attack-forged-refused", "attack-second-answer"] {
        let r = report(&out, forger);
        assert_eq!(verdict(&r, 1), "failed", "{forger}: {r:#}");
        // The checks that call `run` forge a line in their first case (and again when
        // it is re-run alone); a check that never calls it passes.
        for name in ["chain", "crash"] {
            assert_eq!(check(&r, 1, name), "protocol violation", "{forger}: {r:#}");
        }
        for name in ["seek", "seek-past-end"] {
            let anomaly = check(&r, 1, name);
            assert!(
                ["passed", "protocol violation"].contains(&anomaly.as_str()),
                "{forger}: {name}: {anomaly}"
            );
        }
        assert!(r["total"].as_f64().expect("a total") < 100.0, "{forger}");
        assert!(r["error"].is_null(), "{forger} was graded: {r:#}");
    }

    let r = report(&out, "attack-compile-error-env");
    assert_eq!(verdict(&r, 1), "does-not-build", "{r:#}");
    let errors = stage(&r, 1)["errors"].as_str().expect("errors");
    assert!(errors.contains("compile_error!") || errors.contains("the sandbox could not start"));
    assert!(r["error"].is_null(), "it was graded: {r:#}");

    let r = report(&out, "honest");
    assert_eq!(verdict(&r, 1), "passed", "{r:#}");
    assert_eq!(r["total"], 100.0);
}

/// A transcript of the reference driver's answers, recorded before the run for the plan
/// seed a known `--seed` would give, printed with the nonce stolen from the driver's memory
/// (`attack-recorded-transcript`): it passes only when the salt is known in advance too,
/// which `--salt` is, and is never in a grading run; under a fresh salt it fails.
#[test]
fn a_transcript_recorded_before_the_run_passes_only_under_a_known_salt() {
    let _one_at_a_time = super::GRADING.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = tempfile::tempdir().expect("temp dir");
    let subs = scratch.path().join("submissions");
    let (seed, salt) = (7, 99);
    let plan_seed = SeedDraw {
        run_seed: seed,
        salt,
    }
    .plan_seed();
    let forger = submission(
        &subs,
        "attack-recorded-transcript",
        Base::Skeleton,
        Some("attack-recorded-transcript"),
    );
    fs::write(
        forger.join("stages/01-dataflow/src/transcript.rs"),
        transcript_source(&reference_transcript(plan_seed)),
    )
    .expect("write the transcript");
    let run = |out: &Path, extra: &[&str]| {
        let mut args: Vec<String> = vec![forger.display().to_string()];
        args.extend(["--out".into(), out.display().to_string()]);
        args.extend(["--seed", "7", "--stages", "01", "--timeout", "2"].map(String::from));
        args.extend(extra.iter().map(|a| (*a).to_owned()));
        grade(&args);
        report(out, "attack-recorded-transcript")
    };

    // The attack is real: with the salt known beforehand, the skeleton passes.
    let known = run(&scratch.path().join("known"), &["--salt", "99"]);
    assert_eq!(known["seed"], plan_seed, "{known:#}");
    assert_eq!(verdict(&known, 1), "passed", "{known:#}");

    // A grading run draws its salt afresh: the same --seed, and nothing passes.
    let fresh = run(&scratch.path().join("fresh"), &[]);
    assert_ne!(fresh["seed"], plan_seed, "{fresh:#}");
    assert_eq!(fresh["draw"]["run_seed"], seed);
    assert_eq!(verdict(&fresh, 1), "failed", "{fresh:#}");
    assert!(
        fresh["total"].as_f64().expect("a total") < 50.0,
        "{fresh:#}"
    );
}

/// The protocol lines (without marker and nonce) that the reference's stage-01 driver
/// prints for every case of the plan for `plan_seed`, by case.
fn reference_transcript(plan_seed: u64) -> Vec<Vec<String>> {
    let built = Command::new(env!("CARGO"))
        .current_dir(repo())
        .args(["test", "-p", "solution01", "--test", "grade", "--no-run"])
        .args(["--message-format=json"])
        .output()
        .expect("cargo runs");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let driver = String::from_utf8_lossy(&built.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["target"]["name"] == "grade")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("the reference's grade binary");
    let grader = grader(1).expect("stage 01 has a grader");
    let cases = (0..grader.plan_len(plan_seed)).collect();
    let request = Request::new(1, plan_seed, cases, grader.plan_fingerprint(plan_seed));
    let mut child = Command::new(driver)
        .env(REQUEST_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the reference's driver starts");
    let line = serde_json::to_string(&request).expect("a request serialises");
    writeln!(child.stdin.take().expect("stdin"), "{line}").expect("the request is sent");
    let output = child.wait_with_output().expect("the driver ends");
    let prefix = format!("{MARKER}{:016x}:", request.nonce);
    let mut by_case: Vec<Vec<String>> = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some(message) = line.strip_prefix(&prefix) else {
            continue;
        };
        if message.starts_with("{\"Start\"") {
            by_case.push(Vec::new());
        }
        match by_case.last_mut() {
            Some(case) if message != "\"Finished\"" => case.push(message.to_owned()),
            _ => {}
        }
    }
    assert_eq!(
        by_case.len(),
        grader.plan_len(plan_seed),
        "every case answered"
    );
    by_case
}

/// `transcript.rs` for the attack: the lines of every case as Rust string literals.
fn transcript_source(by_case: &[Vec<String>]) -> String {
    let mut source = String::from(
        "//! Written by the test: the reference driver's protocol lines, by case.\n\
         pub const CASES: &[&[&str]] = &[\n",
    );
    for lines in by_case {
        let literals: Vec<String> = lines.iter().map(|l| format!("{l:?}")).collect();
        source.push_str(&format!("    &[{}],\n", literals.join(", ")));
    }
    source.push_str("];\n");
    source
}
