//! `byo autograder classroom`: the files it writes follow Classroom's formats, give every
//! graded stage one test with its share of the points, and run only commands that exist;
//! run through Classroom's own actions ([`actions`]), every stage's result is found and
//! the points add up; and the template's own workflow steps aside where this one judges.

mod actions;

use std::path::Path;

use actions::{node, run_workflow};
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

#[test]
fn classroom_reporter_finds_every_runner_and_the_points_add_up() {
    let Some(_node) = node() else { return };
    let out = tempfile::tempdir().unwrap();
    assert!(autograder(out.path()).status.success());
    let workflow = std::fs::read_to_string(out.path().join(WORKFLOW)).unwrap();
    let points: Vec<u32> = graders::cli::autograder::classroom::tests(100)
        .iter()
        .map(|t| t.points)
        .collect();
    let summary = |stdout: &str| -> serde_json::Value {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("::notice title=Autograding report::"))
            .unwrap_or_else(|| panic!("no score reported:\n{stdout}"));
        serde_json::from_str(line).unwrap()
    };
    // Every stage passes: every runner's result is found, and the points are the total.
    let (code, stdout) = run_workflow(&workflow, &[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(
        summary(&stdout),
        serde_json::json!({"totalPoints": 100, "maxPoints": 100}),
        "{stdout}"
    );
    // Two stages fail: the run fails, and exactly their points are missing.
    let (code, stdout) = run_workflow(&workflow, &["stage03", "stage08"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("::error::Some tests failed."), "{stdout}");
    let total = 100 - points[2] - points[7];
    assert_eq!(
        summary(&stdout),
        serde_json::json!({"totalPoints": total, "maxPoints": 100}),
        "{stdout}"
    );
    // The variable names are the reporter's derivation, which is what found them above.
    for id in ["stage01", "stage08"] {
        let var = graders::cli::autograder::classroom::results_variable(id);
        assert!(workflow.contains(&format!("{var}: \"${{{{steps.{id}.outputs.result}}}}\"")));
    }
}

#[test]
fn the_template_workflow_steps_aside_where_classroom_judges_each_push() {
    let byo = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli/template/byo.yml"),
    )
    .unwrap();
    // The check step's script, as the runner would run it (bash, in the checkout).
    let script: String = byo
        .split("id: classroom\n")
        .nth(1)
        .and_then(|rest| rest.split("run: |\n").nth(1))
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("          "))
        .map(|l| format!("{}\n", &l[10..]))
        .collect();
    assert!(script.contains(WORKFLOW), "{script}");
    let judges = |classroom: bool, event: &str| -> String {
        let repo = tempfile::tempdir().unwrap();
        if classroom {
            let file = repo.path().join(WORKFLOW);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, "").unwrap();
        }
        let output = repo.path().join("github-output");
        let ran = std::process::Command::new("bash")
            .args(["-e", "-c", &script])
            .current_dir(repo.path())
            .env("GITHUB_EVENT_NAME", event)
            .env("GITHUB_OUTPUT", &output)
            .output()
            .unwrap();
        assert!(ran.status.success(), "{ran:?}");
        std::fs::read_to_string(output).unwrap()
    };
    assert_eq!(judges(false, "push"), "judge=yes\n");
    assert_eq!(judges(true, "push"), "judge=no\n");
    assert_eq!(judges(true, "pull_request"), "judge=no\n");
    assert_eq!(judges(true, "workflow_dispatch"), "judge=yes\n");
    // Every step after the check builds or judges only when it said yes.
    let after: Vec<&str> = byo
        .split("      - name: ")
        .skip_while(|step| !step.contains("id: classroom"))
        .skip(1)
        .collect();
    assert_eq!(after.len(), 4, "{byo}");
    for step in after {
        assert!(
            step.contains("if: steps.classroom.outputs.judge == 'yes'"),
            "{step}"
        );
    }
}
