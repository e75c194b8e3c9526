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

/// For each stage of the kata at `root`, the earlier stages its crate uses, directly or
/// through another: read from the `stageNN` dependencies of `stages/*/Cargo.toml`.
pub fn stage_uses(root: &Path) -> BTreeMap<u8, BTreeSet<u8>> {
    let mut direct: BTreeMap<u8, BTreeSet<u8>> = BTreeMap::new();
    for stage in crate::stages::LADDER.iter() {
        let manifest = root.join("stages").join(stage.folder()).join("Cargo.toml");
        let text = std::fs::read_to_string(manifest).unwrap_or_default();
        let uses = text
            .lines()
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
    selected: &'l [&'static StageInfo],
    next: usize,
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
    on_step: &'l dyn Fn(Step<'_>),
}

impl Iterator for Ladder<'_, '_> {
    type Item = Result<StageRun>;

    fn next(&mut self) -> Option<Self::Item> {
        let stage = *self.selected.get(self.next)?;
        self.next += 1;
        Some(self.run(stage))
    }
}

impl Ladder<'_, '_> {
    fn run(&mut self, stage: &'static StageInfo) -> Result<StageRun> {
        let outcome = |outcome| StageRun {
            stage,
            outcome,
            binary: None,
            warnings: Vec::new(),
        };
        if !stage.graded() {
            return Ok(outcome(StageOutcome::Ungraded));
        }
        // Its own errors would be the earlier stage's errors again: name the cause.
        let uses = self.uses.get(&stage.number);
        if let Some(earlier) = self
            .broken
            .iter()
            .find(|b| uses.is_some_and(|u| u.contains(b)))
        {
            return Ok(outcome(StageOutcome::Blocked(*earlier)));
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
        match built {
            Some(Built::Binary(binary)) => {
                (self.on_step)(Step::Judging(stage));
                let judged =
                    self.pipeline
                        .judge(&binary, stage.number, self.seed, self.only, self.limits);
                Ok(StageRun {
                    stage,
                    outcome: judged,
                    binary: Some(binary),
                    warnings,
                })
            }
            Some(Built::Failed(errors)) => {
                self.broken.insert(stage.number);
                Ok(StageRun {
                    warnings,
                    ..outcome(StageOutcome::DoesNotBuild(errors))
                })
            }
            None => Ok(outcome(StageOutcome::DoesNotBuild(
                "no grade binary was built".to_owned(),
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::path::Path;
    use std::process::Command;

    use super::*;
    use crate::cli::launcher::Launcher;
    use crate::stages;

    /// Every build fails with a compiler error, without running cargo.
    struct Broken;

    impl Launcher for Broken {
        fn build(&self, _: Command) -> Command {
            let mut command = Command::new("sh");
            command.args(["-c", "echo 'error[E0425]: cannot find value' >&2; exit 101"]);
            command
        }
    }

    fn walk(batch: Batch) -> (Vec<String>, Vec<String>) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let pipeline = Pipeline::new(&root).launcher(&Broken);
        let selected = [stages::get(1).unwrap(), stages::get(2).unwrap()];
        let steps = RefCell::new(Vec::new());
        let on_step = |step: Step<'_>| {
            steps.borrow_mut().push(match step {
                Step::Building(s) => {
                    format!("build {:?}", s.iter().map(|s| s.number).collect::<Vec<_>>())
                }
                Step::Judging(s) => format!("judge {}", s.number),
            });
        };
        let outcomes = pipeline
            .ladder(&selected, 0, None, Limits::default(), batch, &on_step)
            .map(|run| match run.unwrap().outcome {
                StageOutcome::DoesNotBuild(e) => format!("does not build: {e}"),
                StageOutcome::Blocked(by) => format!("blocked by {by:02}"),
                other => format!("{other:?}"),
            })
            .collect();
        (outcomes, steps.into_inner())
    }

    #[test]
    fn stages_use_what_their_manifests_name() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let uses = stage_uses(&root);
        let of = |n: u8| uses[&n].iter().copied().collect::<Vec<_>>();
        assert_eq!(of(1), Vec::<u8>::new());
        assert_eq!(of(3), [1, 2]);
        assert_eq!(of(6), Vec::<u8>::new(), "06 uses neither 04 nor 05");
        assert!(of(8).contains(&7) && of(8).contains(&1));
    }

    #[test]
    fn a_stage_that_does_not_build_blocks_the_later_ones() {
        let expected = [
            "does not build: error[E0425]: cannot find value",
            "blocked by 01",
        ];
        let (outcomes, steps) = walk(Batch::Together);
        assert_eq!(outcomes, expected);
        assert_eq!(steps, ["build [1, 2]"]);
        let (outcomes, steps) = walk(Batch::OneByOne);
        assert_eq!(outcomes, expected);
        // Stage 02 is never built: its errors would be stage 01's again.
        assert_eq!(steps, ["build [1]"]);
    }
}
