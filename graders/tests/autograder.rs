//! `byo autograder classroom`: the files it writes follow Classroom's formats, give every
//! graded stage one test with its share of the points, and run only commands that exist.

use std::path::Path;

use assert_cmd::Command;
use graders::cli::autograder::classroom::{Autograding, CONFIG, WORKFLOW};

fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn autograder(out: &Path) -> std::process::Output {
    Command::cargo_bin("byo")
        .unwrap()
        .env("BYO_ROOT", repo())
        .args(["autograder", "classroom", "--out"])
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn classroom_tests_cover_every_stage_with_commands_that_exist() {
    let out = tempfile::tempdir().unwrap();
    let first = autograder(out.path());
    assert!(first.status.success(), "{first:?}");

    // The legacy configuration, read with every field required and none unknown.
    let config: Autograding =
        serde_json::from_slice(&std::fs::read(out.path().join(CONFIG)).unwrap()).unwrap();
    let graded: Vec<u8> = graders::stages::LADDER
        .iter()
        .filter(|s| s.graded())
        .map(|s| s.number)
        .collect();
    assert_eq!(config.tests.len(), graded.len());
    assert_eq!(config.tests.iter().map(|t| t.points).sum::<u32>(), 100);
    let alias = std::fs::read_to_string(repo().join(".cargo/config.toml")).unwrap();
    assert!(
        alias.contains("byo = \"run --quiet --package byo-launch --\""),
        "`cargo byo` is the alias the tests run: {alias}"
    );
    for (test, stage) in config.tests.iter().zip(&graded) {
        assert_eq!(test.run, format!("cargo byo test {stage:02}"));
        assert!(["included", "exact", "regex"].contains(&test.comparison.as_str()));
        assert!(test.timeout >= 1 && test.points >= 1, "{test:?}");
        // The command parses as a `byo` command line: it exists, with these arguments.
        let words = test.run.split_whitespace().skip(1);
        graders::cli::args::parse(words).unwrap_or_else(|e| panic!("{}: {e}", test.run));
    }

    // The workflow runs the same commands, one step per test, and reports them all.
    let workflow = std::fs::read_to_string(out.path().join(WORKFLOW)).unwrap();
    let commands: Vec<&str> = workflow
        .lines()
        .filter_map(|l| l.trim().strip_prefix("command: "))
        .collect();
    let expected: Vec<String> = config
        .tests
        .iter()
        .map(|t| format!("\"{}\"", t.run))
        .collect();
    assert_eq!(commands, expected);
    let ids: Vec<&str> = workflow
        .lines()
        .filter_map(|l| l.trim().strip_prefix("id: "))
        .collect();
    assert_eq!(ids.len(), graded.len());
    let runners = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("runners: "))
        .unwrap();
    assert_eq!(runners, ids.join(","));
    for id in &ids {
        assert!(
            workflow.contains(&format!("steps.{id}.outputs.result")),
            "the reporter reads {id}"
        );
    }
    assert!(!workflow.contains('\t'), "YAML indents with spaces");

    // Nothing is overwritten.
    let again = autograder(out.path());
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
}

#[test]
fn points_split_evenly_with_the_remainder_to_the_last_stages() {
    let tests = graders::cli::autograder::classroom::tests(100);
    let points: Vec<u32> = tests.iter().map(|t| t.points).collect();
    assert_eq!(points, [12, 12, 12, 12, 13, 13, 13, 13]);
}
