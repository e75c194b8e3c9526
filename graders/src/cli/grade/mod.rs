//! `byo grade`: a folder of submissions in, a gradebook out, nothing a submission can fake.
//!
//! For each submission, a scratch workspace is made an exact copy of the instructor's
//! repository *as committed* (`git archive HEAD`), and only the submission's regular files
//! under `stages/*/src/**/*.rs` are laid over it ([`overlay`]): never its manifests, build
//! scripts, tests, graders, hints or lock file, and never a symbolic link. Each stage is
//! then built on its own, offline against the locked dependencies, and driven in a child
//! process under a per-case time limit and a memory cap; the verdict comes from the judge
//! in this process, under a seed the submission cannot know in advance. Every failure is
//! re-run once and counted only if it happens again the same way.
//!
//! Submissions are graded one after another in one workspace and one target folder (under
//! the instructor's `target/byo-grade/`, guarded by a lock file), so no two builds ever
//! race on a target folder, and the build stays warm: only the learner crates that differ
//! are rebuilt.

mod folders;
pub mod formats;
pub mod gradebook;
pub mod model;
pub mod options;
pub mod output;
pub mod overlay;
pub mod score;
pub mod submission;

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::pipeline::Pipeline;
use super::workspace::Root;
use crate::harness::supervisor::Limits;
use crate::stages::{self, StageInfo};
use folders::{WorkLock, claim_out_dir};
use model::SubmissionReport;
use options::GradeOptions;
use score::Weights;

/// Where the grades came from, so that a grade can be reproduced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The instructor repository's commit.
    pub grader_revision: String,
    /// `git hash-object Cargo.lock` of that commit.
    pub lock_hash: String,
    /// `rustc --version`.
    pub toolchain: String,
}

pub(super) fn run(root: &Root, options: &GradeOptions) -> Result<ExitCode> {
    let weights = match &options.weights {
        Some(path) => Weights::from_file(path)?,
        None => Weights::default(),
    };
    let selected: Vec<&'static StageInfo> = match &options.stages {
        Some(numbers) => numbers.iter().filter_map(|n| stages::get(*n)).collect(),
        None => stages::LADDER.iter().collect(),
    };
    claim_out_dir(&options.out)?;
    let work = root.path().join("target").join("byo-grade");
    let _lock = WorkLock::take(&work)?;
    let pristine = work.join("pristine");
    let workspace = work.join("workspace");
    let target = work.join("target");
    overlay::extract_pristine(root.path(), &pristine)?;
    let provenance = provenance(root.path(), &pristine);
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let limits = Limits {
        case: options.timeout.unwrap_or(Duration::from_secs(10)),
        stage: Duration::from_secs(600),
        memory: Some(4 << 30),
    };
    eprintln!(
        "grading {} submission(s), stages {}, seed {seed}",
        options.submissions.len(),
        selected
            .iter()
            .map(|s| format!("{:02}", s.number))
            .collect::<Vec<_>>()
            .join(",")
    );

    let mut reports = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    let mut all_graded = true;
    for (i, path) in options.submissions.iter().enumerate() {
        let name = unique_name(path, &mut names);
        let started = Instant::now();
        let progress =
            |what: &str| eprintln!("[{}/{}] {name}: {what}", i + 1, options.submissions.len());
        let mut report = SubmissionReport {
            submission: name.clone(),
            path: path.display().to_string(),
            seed,
            provenance: provenance.clone(),
            stages: Vec::new(),
            total: 0.0,
            files: overlay::Overlay::default(),
            error: None,
            seconds: 0.0,
        };
        let graded = if path.is_dir() {
            submission::prepare(&pristine, &workspace, path).and_then(|files| {
                report.files = files;
                let pipeline = Pipeline::new(&workspace)
                    .target_dir(&target)
                    .cargo_args(submission::OFFLINE);
                submission::grade_stages(&pipeline, &selected, seed, limits, &weights, &progress)
            })
        } else {
            Err(anyhow::anyhow!(
                "grade: submission `{}` is not a folder",
                path.display()
            ))
        };
        match graded {
            Ok(stage_grades) => {
                let scores: Vec<(u8, f64)> = stage_grades
                    .iter()
                    .filter(|s| s.weight > 0.0)
                    .map(|s| (s.stage, s.score))
                    .collect();
                report.total = score::total(&scores, &weights);
                report.stages = stage_grades;
            }
            Err(e) => {
                all_graded = false;
                progress(&format!("could not be graded: {e:#}"));
                report.error = Some(format!("{e:#}"));
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        output::write_submission(
            &options.out.join(&name),
            &report,
            options.gradescope,
            options.junit,
        )?;
        println!(
            "{name:<24} {:>6.1}  {}",
            report.total,
            stage_summary(&report)
        );
        reports.push(report);
    }
    let numbers: Vec<u8> = selected.iter().map(|s| s.number).collect();
    gradebook::write_gradebook(&options.out, &reports, &numbers)?;
    eprintln!("gradebook: {}", options.out.join("grades.csv").display());
    Ok(if all_graded {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn stage_summary(report: &SubmissionReport) -> String {
    if let Some(error) = &report.error {
        return format!("not graded: {error}");
    }
    report
        .stages
        .iter()
        .map(|s| format!("{:02}:{:.0}%", s.stage, s.score * 100.0))
        .collect::<Vec<_>>()
        .join(" ")
}

fn unique_name(path: &Path, taken: &mut std::collections::BTreeSet<String>) -> String {
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| "submission".to_owned());
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

fn command_output(program: &str, args: &[&str], dir: &Path) -> String {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

fn provenance(root: &Path, pristine: &Path) -> Provenance {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    Provenance {
        grader_revision: command_output("git", &["rev-parse", "HEAD"], root),
        lock_hash: command_output("git", &["hash-object", "Cargo.lock"], pristine),
        toolchain: command_output(&rustc, &["--version"], root),
    }
}

/// A seed no submission can know in advance: the clock's nanoseconds mixed with the
/// process id. It is recorded in every report, so any grade can be replayed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::harness::rng::Rng::new(nanos, u64::from(std::process::id())).next_u64()
}
