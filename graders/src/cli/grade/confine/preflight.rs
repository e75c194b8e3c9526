//! What `byo grade` checks before any submission is graded: that the memory cap can be
//! applied, and that the graders' own build is the instructor's (made before any
//! submission's code runs).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::jail::{GradeLauncher, Jail, OFFLINE};
use super::judge_side::JudgeSide;
use super::over_reference::make_over_reference;
use super::slots::Slot;
use crate::cli::grade::intake::overlay;
use crate::cli::grade::intake::record::PublicIncludes;
use crate::cli::pipeline::Pipeline;
use crate::harness::supervisor::EnvironmentError;
use crate::stages::StageInfo;

/// The most virtual memory a driver may map.
pub(crate) const MEMORY_CAP: u64 = 4 << 30;

/// Applies the memory cap once to a shell, so that a machine where it cannot be applied
/// fails before grading, as the grading environment's error, not as every student's.
pub(crate) fn check_memory_cap(bytes: u64) -> Result<()> {
    let status = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("ulimit -v {} 2>/dev/null", bytes / 1024))
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        _ => Err(EnvironmentError(format!(
            "`ulimit -v {}` fails in this shell, so drivers cannot be given their {} GiB \
             memory cap; raise the hard limit (`ulimit -v unlimited`) and grade again",
            bytes / 1024,
            bytes >> 30
        ))
        .into()),
    }
}

/// The least time the instructor's own build of a slot gets, whatever `--build-timeout`
/// says: that limit is for a submission's crates, while a cold slot builds the graders
/// once (minutes), and a slot must not fail the run for being cold.
pub(crate) const PREPARATION_LIMIT: Duration = Duration::from_secs(1800);

/// Readies `slot` for grading before any submission's code is built or run: the
/// pristine tree of the checkout at `root`, its over-reference tree, and the selected
/// stages of both built (the skeletons), so that the graders' own build is the
/// instructor's. Returns what that build looks like, for later checks, and its time.
pub(crate) fn prepare_slot(
    root: &Path,
    slot: &Slot,
    selected: &[&StageInfo],
    jail: &Jail,
    build_limit: Duration,
) -> Result<(JudgeSide, f64)> {
    let started = Instant::now();
    let build_limit = build_limit.max(PREPARATION_LIMIT);
    let target = slot.target();
    overlay::extract_pristine(root, &slot.pristine())?;
    make_over_reference(&slot.pristine(), &slot.pristine_over_reference())?;
    let graded: Vec<&StageInfo> = selected.iter().copied().filter(|s| s.graded()).collect();
    let public = PublicIncludes::of_skeletons(&slot.pristine());
    for (pristine, workspace) in [
        (slot.pristine(), slot.workspace()),
        (
            slot.pristine_over_reference(),
            slot.workspace_over_reference(),
        ),
    ] {
        overlay::sync(&pristine, &workspace)?;
        let launcher = GradeLauncher {
            jail,
            workspace: &workspace,
            target: &target,
            build_limit,
            public: &public,
            submission: false,
        };
        let built = Pipeline::new(&workspace)
            .target_dir(&target)
            .cargo_args(OFFLINE)
            .launcher(&launcher)
            .build(&graded)?;
        for (stage, outcome) in built {
            if let crate::cli::build::Built::Failed(errors) = outcome {
                bail!("grade: the instructor's own stage {stage:02} does not build:\n{errors}");
            }
        }
    }
    Ok((JudgeSide::read(&target)?, started.elapsed().as_secs_f64()))
}
