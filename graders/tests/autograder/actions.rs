//! GitHub Classroom's two actions, run as the runner would run them: the generated
//! workflow's steps through the vendored command grader, then its reporter
//! (`tests/fixtures/classroom-actions/`, see its README), with `node`.

use std::path::Path;

/// One step of the generated workflow: its id, its `uses`, and its `with` and `env` maps.
#[derive(Debug, Default)]
struct Step {
    id: String,
    uses: String,
    with: Vec<(String, String)>,
    env: Vec<(String, String)>,
}

/// The steps of the workflow `byo autograder classroom` writes (its own, regular layout:
/// `- name:` opens a step, `with:` and `env:` open maps of `key: value` lines).
fn steps(workflow: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut map = "";
    for line in workflow.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("- name: ") {
            steps.push(Step::default());
            map = "";
        } else if let Some(step) = steps.last_mut() {
            match trimmed
                .split_once(": ")
                .or(trimmed.strip_suffix(':').map(|k| (k, "")))
            {
                Some(("id", id)) => step.id = id.to_owned(),
                Some(("uses", uses)) => step.uses = uses.to_owned(),
                Some(("with" | "env", "")) => map = if trimmed == "with:" { "with" } else { "env" },
                Some((key, value)) if map == "with" => step.with.push((key.into(), value.into())),
                Some((key, value)) if map == "env" => step.env.push((key.into(), value.into())),
                _ => {}
            }
        }
    }
    steps
}

/// YAML's double-quoted scalar, as the generator writes it (`\"` and `\\` escapes).
fn unquoted(value: &str) -> String {
    let inner = value.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
    inner
        .unwrap_or(value)
        .replace("\\\"", "\"")
        .replace("\\\\", "\\")
}

/// `node`, or `None` (said loudly) where it is missing and `BYO_NODE_REQUIRED` is unset.
pub fn node() -> Option<&'static str> {
    let found = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("BYO_NODE_REQUIRED").is_none(),
            "BYO_NODE_REQUIRED is set and `node --version` fails"
        );
        eprintln!(
            "SKIPPED: no node, so Classroom's actions cannot be run (BYO_NODE_REQUIRED makes this a failure)"
        );
    }
    found.then_some("node")
}

/// Runs the generated workflow through Classroom's own actions (vendored in
/// `tests/fixtures/classroom-actions/`): each stage's step through the command grader,
/// with `true` or `false` for its command, then the reporter with the step outputs the
/// runner would hand it. Returns the reporter's exit code and printed lines.
pub fn run_workflow(workflow: &str, failing: &[&str]) -> (Option<i32>, String) {
    let actions = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/classroom-actions");
    let scratch = tempfile::tempdir().unwrap();
    let mut outputs = std::collections::BTreeMap::new();
    let steps = steps(workflow);
    for step in steps
        .iter()
        .filter(|s| s.uses.contains("autograding-command-grader@v1"))
    {
        let file = scratch.path().join(format!("{}.out", step.id));
        let mut grader = std::process::Command::new("node");
        grader.arg(actions.join("command-grader/src/main.js"));
        grader
            .env("NODE_PATH", actions.join("shims"))
            .env("GITHUB_OUTPUT", &file);
        for (key, value) in &step.with {
            let value = match key.as_str() {
                "command" if failing.contains(&step.id.as_str()) => "false".to_owned(),
                "command" => "true".to_owned(),
                _ => unquoted(value),
            };
            grader.env(
                format!("INPUT_{}", key.replace(' ', "_").to_uppercase()),
                value,
            );
        }
        let ran = grader.output().unwrap();
        assert!(ran.status.success(), "{}: {ran:?}", step.id);
        let text = std::fs::read_to_string(&file).unwrap();
        let result = text
            .lines()
            .find_map(|l| l.strip_prefix("result="))
            .unwrap();
        outputs.insert(
            format!("steps.{}.outputs.result", step.id),
            result.to_owned(),
        );
    }
    let reporter = steps
        .iter()
        .find(|s| s.uses.contains("autograding-grading-reporter@v1"))
        .expect("a reporter step");
    let mut report = std::process::Command::new("node");
    report.arg(actions.join("grading-reporter/src/main.js"));
    report.env("NODE_PATH", actions.join("shims"));
    for (name, value) in &reporter.env {
        // The runner's `${{ ... }}` substitution: only step outputs appear here.
        let expression = unquoted(value);
        let key = expression
            .trim_start_matches("${{")
            .trim_end_matches("}}")
            .trim();
        report.env(
            name,
            outputs
                .get(key)
                .unwrap_or_else(|| panic!("{key}: no such output")),
        );
    }
    for (key, value) in &reporter.with {
        report.env(format!("INPUT_{}", key.to_uppercase()), unquoted(value));
    }
    let ran = report.output().unwrap();
    (
        ran.status.code(),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
    )
}
