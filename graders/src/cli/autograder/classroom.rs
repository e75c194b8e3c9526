//! GitHub Classroom's autograding: one test per stage, each running that stage's
//! `cargo byo test NN` (exit 0 only when every check of the stage passes) and worth its
//! share of the points.
//!
//! Two files, for both generations of Classroom's autograding: the legacy
//! `.github/classroom/autograding.json` (read by `education/autograding`), and a workflow
//! that runs each test with `classroom-resources/autograding-command-grader` and reports
//! with `classroom-resources/autograding-grading-reporter`. A student's runner judges only
//! the student's own code with `byo test`, never `byo grade`: a pushed repository can
//! change its own workflow, so Classroom's scores are feedback, and the grade of record
//! comes from `byo grade` on the instructor's machine.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::stages::{self, StageInfo};

/// The legacy configuration file, relative to the repository root.
pub const CONFIG: &str = ".github/classroom/autograding.json";
/// The workflow file, relative to the repository root.
pub const WORKFLOW: &str = ".github/workflows/classroom.yml";

/// `.github/classroom/autograding.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Autograding {
    /// One test per stage.
    pub tests: Vec<ClassroomTest>,
}

/// One test of Classroom's legacy format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassroomTest {
    /// Shown to the student.
    pub name: String,
    /// Run before `run` (empty: nothing).
    pub setup: String,
    /// The command whose exit code decides.
    pub run: String,
    /// Standard input (unused).
    pub input: String,
    /// Expected output (unused: the exit code decides).
    pub output: String,
    /// How output is compared (`included`, `exact`, `regex`).
    pub comparison: String,
    /// Minutes.
    pub timeout: u32,
    /// Points when it passes.
    pub points: u32,
}

/// The first build compiles the graders and their dependencies: minutes on a runner.
const FIRST_TIMEOUT_MINUTES: u32 = 15;
/// Later stages build only their own crate.
const TIMEOUT_MINUTES: u32 = 5;

/// The tests for every graded stage, `points` split evenly (the remainder to the last
/// stages, which ask most).
pub fn tests(points: u32) -> Vec<ClassroomTest> {
    let graded: Vec<&StageInfo> = stages::LADDER.iter().filter(|s| s.graded()).collect();
    let count = u32::try_from(graded.len()).unwrap_or(u32::MAX).max(1);
    let (share, extra) = (points / count, points % count);
    graded
        .iter()
        .enumerate()
        .map(|(i, stage)| {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            ClassroomTest {
                name: stages::title(stage.number),
                setup: String::new(),
                run: format!("cargo byo test {:02}", stage.number),
                input: String::new(),
                output: String::new(),
                comparison: "included".to_owned(),
                timeout: if i == 0 {
                    FIRST_TIMEOUT_MINUTES
                } else {
                    TIMEOUT_MINUTES
                },
                points: share + u32::from(i >= count - extra),
            }
        })
        .collect()
}

/// The workflow running `tests` with Classroom's command grader and reporter.
pub fn workflow(tests: &[ClassroomTest]) -> String {
    let id = |test: &ClassroomTest| {
        test.run
            .rsplit(' ')
            .next()
            .map_or(String::new(), |n| format!("stage{n}"))
    };
    let mut yml = String::from(
        "# Written by `byo autograder classroom`: one test per stage, each running that stage's\n\
         # `cargo byo test NN` (exit 0 only when every check passes).\n\
         name: Autograding Tests\n\
         'on':\n  - push\n  - repository_dispatch\n\
         permissions:\n  checks: write\n  actions: read\n  contents: read\n\
         jobs:\n  run-autograding-tests:\n    runs-on: ubuntu-latest\n\
         \x20   if: github.actor != 'github-classroom[bot]'\n    steps:\n\
         \x20     - name: Checkout code\n        uses: actions/checkout@v4\n",
    );
    for test in tests {
        let _ = write!(
            yml,
            "      - name: {name}\n        id: {id}\n        uses: classroom-resources/autograding-command-grader@v1\n        with:\n          test-name: {name}\n          command: {run}\n          timeout: {timeout}\n          max-score: {points}\n",
            name = yaml_string(&test.name),
            id = id(test),
            run = yaml_string(&test.run),
            timeout = test.timeout,
            points = test.points,
        );
    }
    let ids: Vec<String> = tests.iter().map(id).collect();
    yml.push_str("      - name: Autograding Reporter\n        uses: classroom-resources/autograding-grading-reporter@v1\n        env:\n");
    for id in &ids {
        let _ = writeln!(
            yml,
            "          {var}: \"${{{{steps.{id}.outputs.result}}}}\"",
            var = results_variable(id)
        );
    }
    let _ = writeln!(yml, "        with:\n          runners: {}", ids.join(","));
    yml
}

/// The environment variable the reporter reads a runner's result from, derived as it
/// derives it: `process.env[`${runner.trim().toUpperCase()}_RESULTS`]`
/// (`classroom-resources/autograding-grading-reporter`, `src/main.js`, line 10, tag `v1`).
/// Step ids are letters and digits only (`stage01`), the pattern the reporter checks its
/// `runners` input against when a lookup fails, so its error then names the real cause.
pub fn results_variable(runner: &str) -> String {
    format!("{}_RESULTS", runner.trim().to_uppercase())
}

/// A YAML double-quoted string.
fn yaml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes both files under `root`, refusing to overwrite either.
///
/// # Errors
/// When a file exists already or cannot be written.
pub fn write(root: &Path, points: u32) -> Result<Vec<PathBuf>> {
    let tests = tests(points);
    let files = [
        (
            root.join(CONFIG),
            serde_json::to_string_pretty(&Autograding {
                tests: tests.clone(),
            })? + "\n",
        ),
        (root.join(WORKFLOW), workflow(&tests)),
    ];
    for (path, _) in &files {
        if path.exists() {
            bail!(
                "autograder: {} exists already; move it away first (nothing is overwritten)",
                path.display()
            );
        }
    }
    let mut written = Vec::new();
    for (path, text) in files {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
