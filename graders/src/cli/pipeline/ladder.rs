//! The stages of a pipeline in order: each built (all at once, or one by one) and judged
//! when asked for, a stage that does not build blocking the later ones whose crates use
//! it (a stage's manifest names the earlier stages its code uses: 06 uses none of 04 and
//! 05, so a broken 05 does not cost 06).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{Pipeline, StageOutcome};
use crate::cli::build::Built;
use crate::harness::supervisor::Limits;
use crate::stages::StageInfo;

/// How a [`Pipeline::ladder`] builds its stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Batch {
    /// In one cargo run before the first stage is judged (fastest; a learner's `test`).
    Together,
    /// Each just before it is judged (per-stage progress and timings; grading).
    OneByOne,
}

/// What a ladder is about to do, for progress lines.
#[derive(Debug, Clone, Copy)]
pub enum Step<'s> {
    /// Building these stages' grade binaries.
    Building(&'s [&'static StageInfo]),
    /// Driving and judging this stage.
    Judging(&'static StageInfo),
}

/// One stage, through the pipeline.
#[derive(Debug, Clone)]
pub struct StageRun {
    /// The stage.
    pub stage: &'static StageInfo,
    /// How it came out.
    pub outcome: StageOutcome,
    /// Its grade binary, when it built (to replay a case).
    pub binary: Option<PathBuf>,
    /// The compiler's warnings on its crate, as rendered.
    pub warnings: Vec<String>,
}

impl<'a> Pipeline<'a> {
    /// Builds and judges `selected` in order, lazily: each item is one stage, built (per
    /// `batch`) and judged when it is asked for. `on_step` hears what comes next.
    pub fn ladder<'l>(
        &'l self,
        selected: &'l [&'static StageInfo],
        seed: u64,
        only: Option<usize>,
        limits: Limits,
        batch: Batch,
        on_step: &'l dyn Fn(Step<'_>),
    ) -> Ladder<'l, 'a> {
        Ladder {
            pipeline: self,
            selected,
            next: 0,
            seed,
            only,
            limits,
            batch,
            built: None,
            warnings: BTreeMap::new(),
            broken: BTreeSet::new(),
            uses: stage_uses(self.root),
            on_step,
        }
    }
}

/// For each stage of the kata at `root`, the earlier learner stages its crate uses,
/// directly or through another: read from the `stageNN` dependencies of
/// `stages/*/Cargo.toml` that are learner stages, not references.
pub fn stage_uses(root: &Path) -> BTreeMap<u8, BTreeSet<u8>> {
    let mut direct: BTreeMap<u8, BTreeSet<u8>> = BTreeMap::new();
    for stage in crate::stages::LADDER.iter() {
        let manifest = root.join("stages").join(stage.folder()).join("Cargo.toml");
        let text = std::fs::read_to_string(manifest).unwrap_or_default();
        let uses = text
            .lines()
            // Over a reference (`stage04 = { package = "solution04", ... }`, as grading
            // judges a stage on its own), a learner's stage uses no earlier learner stage.
            .filter(|line| !line.contains("package = \"solution"))
            .filter_map(|line| line.trim_start().strip_prefix("stage"))
            .filter_map(|rest| rest.get(..2)?.parse::<u8>().ok())
            .filter(|n| *n != stage.number)
            .collect();
        direct.insert(stage.number, uses);
    }
    let mut closed = BTreeMap::new();
    for (&stage, uses) in &direct {
        let mut all = BTreeSet::new();
        let mut pending: Vec<u8> = uses.iter().copied().collect();
        while let Some(next) = pending.pop() {
            if all.insert(next) {
                pending.extend(direct.get(&next).into_iter().flatten().copied());
            }
        }
        closed.insert(stage, all);
    }
    closed
}

/// The stages of a [`Pipeline::ladder`], one at a time.
pub struct Ladder<'l, 'a> {
    pipeline: &'l Pipeline<'a>,
    pub(super) selected: &'l [&'static StageInfo],
    pub(super) next: usize,
    seed: u64,
    only: Option<usize>,
    limits: Limits,
    batch: Batch,
    /// With [`Batch::Together`], every graded stage's build, once the first is asked for.
    built: Option<BTreeMap<u8, Built>>,
    /// The warnings of the builds so far, by stage.
    warnings: BTreeMap<u8, Vec<String>>,
    /// The stages that did not build: a later stage that uses one is blocked by it.
    broken: BTreeSet<u8>,
    /// Which earlier stages each stage uses ([`stage_uses`]).
    uses: BTreeMap<u8, BTreeSet<u8>>,
    pub(super) on_step: &'l dyn Fn(Step<'_>),
}

impl Iterator for Ladder<'_, '_> {
    type Item = Result<StageRun>;

    fn next(&mut self) -> Option<Self::Item> {
        let stage = *self.selected.get(self.next)?;
        self.next += 1;
        Some(self.run(stage))
    }
}

/// How a ladder judges a built stage.
#[derive(Clone, Copy)]
pub(super) struct Judging<'l, 'a> {
    pipeline: &'l Pipeline<'a>,
    seed: u64,
    only: Option<usize>,
    limits: Limits,
}

impl Judging<'_, '_> {
    /// Drives and judges `stage`'s `binary`.
    pub(super) fn judge(
        self,
        stage: &'static StageInfo,
        binary: PathBuf,
        warnings: Vec<String>,
    ) -> StageRun {
        let judged = self.pipeline.judge(
            &binary,
            stage.number,
            self.seed,
            self.only,
            self.limits.for_stage(stage.number),
        );
        StageRun {
            stage,
            outcome: judged,
            binary: Some(binary),
            warnings,
        }
    }
}

/// A stage readied for judging, or already decided without it.
pub(super) enum Prepared {
    /// Decided: ungraded, blocked, or not built.
    Done(StageRun),
    /// Built: its binary and warnings, to be driven and judged.
    Ready {
        /// The grade binary.
        binary: PathBuf,
        /// The compiler's warnings on its crate.
        warnings: Vec<String>,
    },
}

impl<'a> Ladder<'_, 'a> {
    fn run(&mut self, stage: &'static StageInfo) -> Result<StageRun> {
        match self.prepare(stage)? {
            Prepared::Done(run) => Ok(run),
            Prepared::Ready { binary, warnings } => {
                (self.on_step)(Step::Judging(stage));
                Ok(self.judge(stage, binary, warnings))
            }
        }
    }

    /// Drives and judges a built stage.
    pub(super) fn judge(
        &self,
        stage: &'static StageInfo,
        binary: PathBuf,
        warnings: Vec<String>,
    ) -> StageRun {
        self.judging().judge(stage, binary, warnings)
    }

    /// What judging a built stage needs, without the ladder's progress callback: shared
    /// by the threads that judge stages at once.
    pub(super) fn judging(&self) -> Judging<'_, 'a> {
        Judging {
            pipeline: self.pipeline,
            seed: self.seed,
            only: self.only,
            limits: self.limits,
        }
    }

    /// Builds `stage` (or takes it from the batch) and decides whatever needs no judging.
    pub(super) fn prepare(&mut self, stage: &'static StageInfo) -> Result<Prepared> {
        let outcome = |outcome| StageRun {
            stage,
            outcome,
            binary: None,
            warnings: Vec::new(),
        };
        if !stage.graded() {
            return Ok(Prepared::Done(outcome(StageOutcome::Ungraded)));
        }
        // Its own errors would be the earlier stage's errors again: name the cause.
        let uses = self.uses.get(&stage.number);
        if let Some(earlier) = self
            .broken
            .iter()
            .find(|b| uses.is_some_and(|u| u.contains(b)))
        {
            return Ok(Prepared::Done(outcome(StageOutcome::Blocked(*earlier))));
        }
        let built = match self.batch {
            Batch::Together => {
                if self.built.is_none() {
                    let graded: Vec<&'static StageInfo> = self
                        .selected
                        .iter()
                        .copied()
                        .filter(|s| s.graded())
                        .collect();
                    (self.on_step)(Step::Building(&graded));
                    let builds = self.pipeline.build_all(&graded)?;
                    self.warnings = builds.warnings;
                    self.built = Some(builds.built);
                }
                self.built.as_mut().and_then(|b| b.remove(&stage.number))
            }
            Batch::OneByOne => {
                (self.on_step)(Step::Building(std::slice::from_ref(&stage)));
                let mut builds = self.pipeline.build_all(&[stage])?;
                self.warnings.append(&mut builds.warnings);
                builds.built.remove(&stage.number)
            }
        };
        let warnings = self.warnings.remove(&stage.number).unwrap_or_default();
        Ok(match built {
            Some(Built::Binary(binary)) => Prepared::Ready { binary, warnings },
            Some(Built::Failed(errors)) => {
                self.broken.insert(stage.number);
                Prepared::Done(StageRun {
                    warnings,
                    ..outcome(StageOutcome::DoesNotBuild(errors))
                })
            }
            None => Prepared::Done(outcome(StageOutcome::DoesNotBuild(
                "no grade binary was built".to_owned(),
            ))),
        })
    }
}

#[cfg(test)]
#[path = "ladder_tests.rs"]
mod tests;
