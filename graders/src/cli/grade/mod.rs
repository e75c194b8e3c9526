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

pub mod cohort;
pub mod cohort_groups;
mod cohort_heatmap;
pub mod cohort_html;
pub mod cohort_matrix;
pub mod copies;
mod folders;
pub mod formats;
pub mod gradebook;
pub mod jail;
pub mod lock;
pub mod model;
pub mod options;
pub mod output;
pub mod overlay;
mod preflight;
pub mod provenance;
pub mod reach;
pub mod score;
pub mod submission;
pub mod tokens;

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::pipeline::Pipeline;
use super::workspace::Root;
use crate::harness::supervisor::Limits;
use crate::stages::{self, StageInfo};
use folders::{claim_out_dir, submission_names};
use jail::{GradeLauncher, Jail};
use lock::WorkLock;
use model::SubmissionReport;
use options::GradeOptions;
use preflight::{
    ENVIRONMENT_FAILED, MEMORY_CAP, RESERVED, build_judge_side, check_memory_cap, not_a_submission,
};
use score::Weights;

pub use provenance::Provenance;

pub(super) fn run(root: &Root, options: &GradeOptions) -> Result<ExitCode> {
    let weights = match &options.weights {
        Some(path) => Weights::from_file(path)?,
        None => Weights::default(),
    };
    let selected: Vec<&'static StageInfo> = match &options.stages {
        Some(numbers) => numbers.iter().filter_map(|n| stages::get(*n)).collect(),
        None => stages::LADDER.iter().collect(),
    };
    let names = submission_names(&options.submissions)?;
    claim_out_dir(&options.out)?;
    let jail = if options.no_sandbox {
        eprintln!("grade: --no-sandbox: submissions' code runs unconfined; every report says so");
        Jail::Unconfined
    } else {
        Jail::sandboxed(root.path(), &options.out, &options.submissions)?
    };
    let limits = Limits {
        case: options.timeout.unwrap_or(Duration::from_secs(10)),
        stage: Duration::from_secs(600),
        memory: Some(MEMORY_CAP),
    };
    check_memory_cap(MEMORY_CAP)?;
    // Canonical, as the sandbox's mount points are: `graders/../target` does not resolve
    // inside it, where `graders` is hidden.
    let checkout = std::fs::canonicalize(root.path())
        .with_context(|| format!("reading {}", root.path().display()))?;
    let work = checkout.join("target").join("byo-grade");
    let _lock = WorkLock::take(&work)?;
    let pristine = work.join("pristine");
    let workspace = work.join("workspace");
    let target = work.join("target");
    overlay::extract_pristine(root.path(), &pristine)?;
    // The sandbox mounts only folders that exist: cargo must not have to make these.
    for dir in [&workspace, &target] {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let build_limit = options.build_timeout.unwrap_or(Duration::from_secs(600));
    let mut provenance = Provenance::read(root.path(), &pristine, limits.case, build_limit);
    provenance.sandboxed = jail.is_sandboxed();
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let launcher = GradeLauncher {
        jail: &jail,
        workspace: &workspace,
        target: &target,
        build_limit,
    };
    let (judge_side, built_in) =
        build_judge_side(&pristine, &workspace, &target, &selected, &launcher)?;
    // Charged to no submission: on its own line, before theirs.
    println!("{:<24} {:>6.1} s", "(graders, built once)", built_in);
    eprintln!(
        "grading {} submission(s), stages {}, seed {seed}",
        options.submissions.len(),
        selected
            .iter()
            .map(|s| format!("{:02}", s.number))
            .collect::<Vec<_>>()
            .join(",")
    );

    let mut all_graded = true;
    for (i, (path, name)) in options.submissions.iter().zip(names).enumerate() {
        let started = Instant::now();
        let progress =
            |what: &str| eprintln!("[{}/{}] {name}: {what}", i + 1, options.submissions.len());
        let mut report = SubmissionReport {
            submission: name.clone(),
            path: shown_path(path),
            seed,
            provenance: provenance.clone(),
            stages: Vec::new(),
            total: 0.0,
            files: overlay::Overlay::default(),
            file_hashes: Default::default(),
            changed_from_skeleton: Vec::new(),
            error: None,
            seconds: 0.0,
        };
        judge_side.verify(&target, "the submissions before this one")?;
        let refused = not_a_submission(path, &name);
        let graded = match &refused {
            Some(why) => Err(anyhow::anyhow!("not a submission: {why}")),
            None => submission::prepare(&pristine, &workspace, path).and_then(|files| {
                report.file_hashes = provenance::file_hashes(&workspace, &files.overlaid);
                report.changed_from_skeleton =
                    submission::changed_from(&pristine, &report.file_hashes);
                report.files = files;
                let pipeline = Pipeline::new(&workspace)
                    .target_dir(&target)
                    .cargo_args(submission::OFFLINE)
                    .launcher(&launcher);
                submission::grade_stages(&pipeline, &selected, seed, limits, &weights, &progress)
            }),
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
                // Longest first: the workspace and target lie inside the checkout.
                let folders = [&workspace, &target, &work, &checkout].map(|p| p.as_path());
                submission::scrub_paths(&mut report.stages, &folders);
            }
            Err(e) => {
                // A folder that is no submission is the input's fault, graded 0 with its
                // reason; anything else means grading itself did not work.
                all_graded &= refused.is_some();
                progress(&format!("could not be graded: {e:#}"));
                report.error = Some(format!("{e:#}"));
            }
        }
        report.seconds = started.elapsed().as_secs_f64();
        if report.stages.iter().any(|s| {
            s.errors
                .as_deref()
                .is_some_and(|e| e.contains(ENVIRONMENT_FAILED))
        }) {
            all_graded = false;
        }
        if !RESERVED.contains(&name.as_str()) {
            output::write_submission(
                &options.out.join(&name),
                &report,
                options.gradescope,
                options.junit,
            )?;
        }
        println!(
            "{name:<24} {:>6.1}  {}",
            report.total,
            stage_summary(&report)
        );
    }
    judge_side.verify(&target, "the last submission")?;
    gradebook::write_gradebook(&options.out)?;
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

/// `path` as a report shows it: relative to the current folder when it lies inside it,
/// so that the instructor's home folder is not in what a student reads.
fn shown_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative.as_deref().unwrap_or(path).display().to_string()
}

/// A seed no submission can know in advance: the clock's nanoseconds mixed with the
/// process id. It is recorded in every report, so any grade can be replayed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::harness::rng::Rng::new(nanos, u64::from(std::process::id())).next_u64()
}
