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
use crate::harness::cap::Caps;
use crate::harness::supervisor::{EnvironmentError, Limits};
use crate::stages::StageInfo;

/// The most virtual memory a driver may map.
pub(crate) const MEMORY_CAP: u64 = 4 << 30;

/// Applies a driver's limits (the memory cap, the CPU cap) once to a shell, so that a
/// machine where they cannot be applied fails before grading, as the grading
/// environment's error, not as every student's.
pub(crate) fn check_driver_caps(limits: &Limits) -> Result<()> {
    let caps = Caps {
        memory: limits.memory,
        cpu_seconds: limits.cpu.map(|cpu| cpu.as_secs().max(1)),
    };
    let status = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("{{ {}; }} 2>/dev/null", caps.ulimits()))
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        _ => Err(EnvironmentError(format!(
            "`{}` fails in this shell, so drivers cannot be given their limits; raise the \
             hard limits (`ulimit -v unlimited`, `ulimit -t unlimited`) and grade again",
            caps.ulimits()
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
