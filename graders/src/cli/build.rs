//! Building stages' grade binaries with cargo, and reading back where they are or why
//! they did not build.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use serde::Deserialize;

use super::compiler_errors::trim_errors;
use super::dep_info;
use super::heartbeat::Heartbeat;
use super::launcher::Launcher;
use crate::harness::bounded;
use crate::harness::supervisor::Unconfined;

/// A build without a time limit still needs a number: a day.
const UNLIMITED: std::time::Duration = std::time::Duration::from_secs(24 * 3600);
use crate::stages::StageInfo;

/// Which crates of a stage to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The learner's `stageNN` (with its `grade` feature).
    Learner,
    /// The reference `solutionNN`.
    Reference,
}

/// The result of building one stage's grade binary.
#[derive(Debug, Clone)]
pub enum Built {
    /// The binary to run as a driver.
    Binary(PathBuf),
    /// The compiler's errors, trimmed for a report.
    Failed(String),
}

/// Builds the grade binaries of `stages` in one cargo run; when that fails, stage by
/// stage, so each stage that does not build gets its own errors. `extra` goes to cargo
/// as is (grading passes `--offline --locked`); `launcher` starts each cargo run.
///
/// # Errors
/// When cargo cannot be started at all.
pub fn build(
    root: &Path,
    target_dir: Option<&Path>,
    stages: &[&StageInfo],
    side: Side,
    extra: &[&str],
    launcher: &dyn Launcher,
) -> Result<BTreeMap<u8, Built>> {
    build_all(root, target_dir, stages, side, extra, launcher, false).map(|b| b.built)
}

/// What [`build_all`] returns: each stage's build, and the compiler's warnings on each
/// stage's own crate.
#[derive(Debug, Clone, Default)]
pub struct Builds {
    /// Each stage's grade binary or errors.
    pub built: BTreeMap<u8, Built>,
    /// The warnings whose location is in each stage's folder, as rendered.
    pub warnings: BTreeMap<u8, Vec<String>>,
}

/// [`build`], keeping the warnings; with `speak`, saying what it builds and how far it
/// is (a heartbeat on standard error).
///
/// # Errors
/// When cargo cannot be started at all.
pub fn build_all(
    root: &Path,
    target_dir: Option<&Path>,
    stages: &[&StageInfo],
    side: Side,
    extra: &[&str],
    launcher: &dyn Launcher,
    speak: bool,
) -> Result<Builds> {
    let heartbeat = speak.then(|| {
        let names: Vec<String> = stages.iter().map(|s| format!("{:02}", s.number)).collect();
        let target = target_dir.map_or_else(
            || {
                std::env::var_os("CARGO_TARGET_DIR")
                    .map_or_else(|| root.join("target"), PathBuf::from)
            },
            Path::to_path_buf,
        );
        Heartbeat::start(&format!("stage(s) {}", names.join(", ")), &target)
    });
    let heartbeat = heartbeat.as_ref();
    let together = cargo_build(root, target_dir, stages, side, extra, launcher, heartbeat)?;
    if let Some(refused) = &together.refused {
        // What the compiler read decides before anything it printed is shown: its errors
        // and warnings may quote the file it should not have read.
        let built = stages
            .iter()
            .map(|s| (s.number, Built::Failed(refused.clone())))
            .collect();
        return Ok(Builds {
            built,
            warnings: BTreeMap::new(),
        });
    }
    let mut warnings = BTreeMap::new();
    let by_folder = super::warnings::by_stage_folder(&together.stderr);
    for stage in stages {
        if let Some(found) = by_folder.get(&stage.folder()) {
            let found = found
                .iter()
                .map(|w| super::std_notes::without_unreadable_std(w));
            warnings.insert(stage.number, found.collect());
        }
    }
    if together.success {
        let built = stages
            .iter()
            .map(|s| {
                let built = match together.binaries.get(&s.folder()) {
                    Some(path) => Built::Binary(path.clone()),
                    None => Built::Failed("cargo built no grade binary for this stage".to_owned()),
                };
                (s.number, built)
            })
            .collect();
        return Ok(Builds { built, warnings });
    }
    let mut results = BTreeMap::new();
    for stage in stages {
        // One stage alone already has its own errors: building it again would only
        // double the time (and a build stopped at its time limit would run twice).
        let alone = if stages.len() == 1 {
            together.clone()
        } else {
            cargo_build(root, target_dir, &[stage], side, extra, launcher, heartbeat)?
        };
        let built = match (alone.success, alone.binaries.get(&stage.folder())) {
            _ if alone.refused.is_some() => Built::Failed(alone.refused.unwrap_or_default()),
            (true, Some(path)) => Built::Binary(path.clone()),
            _ => Built::Failed(trim_errors(&alone.stderr)),
        };
        results.insert(stage.number, built);
    }
    Ok(Builds {
        built: results,
        warnings,
    })
}

#[derive(Clone)]
struct CargoRun {
    success: bool,
    /// Grade binaries by stage folder name (`01-dataflow`).
    binaries: BTreeMap<String, PathBuf>,
    stderr: String,
    /// Why the launcher refuses this run's build, from the compiler's record of what it
    /// read ([`Launcher::refuse_reads`]); the run's errors and warnings are then not shown.
    refused: Option<String>,
}

#[derive(Deserialize)]
struct Artifact {
    reason: String,
    #[serde(default)]
    manifest_path: Option<PathBuf>,
    #[serde(default)]
    target: Option<Target>,
    #[serde(default)]
    executable: Option<PathBuf>,
    #[serde(default)]
    filenames: Vec<PathBuf>,
    #[serde(default)]
    fresh: bool,
}

#[derive(Deserialize)]
struct Target {
    name: String,
    #[serde(default)]
    kind: Vec<String>,
}

fn cargo_build(
    root: &Path,
    target_dir: Option<&Path>,
    stages: &[&StageInfo],
    side: Side,
    extra: &[&str],
    launcher: &dyn Launcher,
    heartbeat: Option<&Heartbeat>,
) -> Result<CargoRun> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(root).args([
        "test",
        "--no-run",
        "--test",
        "grade",
        "--message-format=json-render-diagnostics",
    ]);
    if let Some(dir) = target_dir {
        command.arg("--target-dir").arg(dir);
    }
    command.args(extra);
    let mut features = Vec::new();
    for stage in stages {
        let package = match side {
            Side::Learner => stage.learner_crate(),
            Side::Reference => stage.reference_crate(),
        };
        command.args(["--package", &package]);
        if side == Side::Learner {
            features.push(format!("{package}/grade"));
        }
    }
    if !features.is_empty() {
        command.args(["--features", &features.join(",")]);
    }
    let limit = launcher.build_limit();
    let target = target_dir.map_or_else(
        || std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from),
        Path::to_path_buf,
    );
    let started = dep_info::run_started(&target);
    let memory_before = launcher.build_memory();
    let run = bounded::run_bounded_watching(
        launcher.build(command),
        limit.unwrap_or(UNLIMITED),
        &Unconfined,
        &|line| {
            if let Some(heartbeat) = heartbeat {
                heartbeat.saw(line);
            }
        },
    )
    .context("running cargo")?;
    let Some(status) = run.status else {
        return Ok(CargoRun {
            success: false,
            binaries: BTreeMap::new(),
            stderr: format!(
                "error: the build did not finish within its time limit of {} s and was \
                 stopped (a constant whose evaluation never ends, or a macro that expands \
                 forever?)",
                limit.unwrap_or(UNLIMITED).as_secs()
            ),
            refused: None,
        });
    };
    if let (Some(before), Some(after)) = (memory_before, launcher.build_memory())
        && after.kills > before.kills
        && !status.success()
    {
        return Ok(CargoRun {
            success: false,
            binaries: BTreeMap::new(),
            stderr: format!(
                "error: the build went over its memory limit of {} GiB and was stopped (a \
                 constant or `static` too big to compile?)",
                after.cap >> 30
            ),
            refused: None,
        });
    }
    let mut binaries = BTreeMap::new();
    let mut fresh = Vec::new();
    let stages_dir = std::fs::canonicalize(root)
        .unwrap_or_else(|_| root.to_path_buf())
        .join("stages");
    for line in &run.stdout {
        let Ok(artifact) = serde_json::from_str::<Artifact>(line) else {
            continue;
        };
        let is_learner_lib = artifact.target.as_ref().is_some_and(|t| {
            t.kind.iter().any(|k| k.ends_with("lib"))
                && artifact
                    .manifest_path
                    .as_ref()
                    .is_some_and(|m| m.starts_with(&stages_dir))
        });
        if artifact.reason == "compiler-artifact" && artifact.fresh && is_learner_lib {
            fresh.push(dep_info::FreshArtifact {
                outputs: artifact.filenames.clone(),
            });
        }
        let is_grade = artifact.target.as_ref().is_some_and(|t| t.name == "grade");
        if artifact.reason != "compiler-artifact" || !is_grade {
            continue;
        }
        let folder = artifact
            .manifest_path
            .as_ref()
            .and_then(|m| m.parent())
            .and_then(|d| d.file_name())
            .map(|n| n.to_string_lossy().into_owned());
        if let (Some(folder), Some(executable)) = (folder, artifact.executable) {
            binaries.insert(folder, executable);
        }
    }
    let records =
        dep_info::records_of_run(root, &target.join("debug").join("deps"), started, &fresh);
    Ok(CargoRun {
        success: status.success(),
        binaries,
        stderr: run.stderr,
        refused: launcher.refuse_reads(&records),
    })
}
