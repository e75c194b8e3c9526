//! The two chains a submission's stage is built over: the **references** of the earlier
//! stages it uses (where it is scored, so a broken 04 costs 04 alone), and the learner's
//! **own** earlier stages (where it is only looked at, to say which of the learner's
//! stages a later one would break).
//!
//! The over-reference tree is the pristine tree with each stage's manifest naming the
//! references of its predecessors, as the references' own manifests do (`stage04 = {
//! package = "solution04", ... }`), so the learner's sources compile unchanged over them.
//! Its `Cargo.lock` is brought in line once per run, by cargo, offline and with no
//! registry package changed; every build then stays `--locked`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::model::{StageGrade, Verdict};
use crate::cli::pipeline::{Batch, Pipeline, StageOutcome};
use crate::harness::supervisor::Limits;
use crate::stages::{self, StageInfo};

/// Makes `into` the over-reference tree of the pristine tree at `pristine`.
///
/// # Errors
/// When a stage manifest names an earlier stage in a form this does not know (the
/// instructor's tree changed shape), or cargo cannot update the lock file offline.
pub fn make_over_reference(pristine: &Path, into: &Path) -> Result<()> {
    super::overlay::sync(pristine, into)?;
    for stage in stages::LADDER.iter() {
        let manifest = into.join("stages").join(stage.folder()).join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let rewritten =
            over_references(&text).with_context(|| format!("rewriting {}", manifest.display()))?;
        std::fs::write(&manifest, rewritten)
            .with_context(|| format!("writing {}", manifest.display()))?;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(into)
        .args(["update", "--workspace", "--offline", "--quiet"]);
    super::jail::cargo_environment(&mut command);
    let output = command.output().context("running cargo update")?;
    if !output.status.success() {
        bail!(
            "grade: cargo could not lock the stages over the references offline in {}: {}",
            into.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// A stage manifest with each `stageNN = { path = "../NN-slug" }` dependency replaced by
/// the reference of that stage under the same crate name.
fn over_references(manifest: &str) -> Result<String> {
    let mut out = String::with_capacity(manifest.len() + 200);
    for line in manifest.lines() {
        match line.strip_prefix("stage").and_then(|rest| rest.get(..2)) {
            Some(number) if number.bytes().all(|b| b.is_ascii_digit()) => {
                let folder = line
                    .strip_prefix(&format!("stage{number} = {{ path = \"../"))
                    .and_then(|rest| rest.strip_suffix("\" }"))
                    .with_context(|| {
                        format!(
                            "`{line}` is not of the form `stage{number} = {{ path = \"../{number}-slug\" }}`"
                        )
                    })?;
                out.push_str(&format!(
                    "stage{number} = {{ package = \"solution{number}\", path = \"../../solutions/{folder}\" }}"
                ));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    Ok(out)
}

/// How a stage fares over the learner's own earlier stages, when one it uses did not
/// pass on its own (or it does not build over the references).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverYourStages {
    /// The learner's earlier stages it uses, and how each came out on its own.
    pub uses: BTreeMap<u8, Verdict>,
    /// How it came out over them: passed, failed, or does not build.
    pub verdict: Verdict,
    /// The checks that failed over them, with their anomaly (`crash: time-out`).
    pub failing: Vec<String>,
}

impl OverYourStages {
    /// The sentence a report shows: "stage 04 passes over the reference 03; over your 03
    /// (does not build) it does not build."
    pub fn sentence(&self, grade: &StageGrade) -> String {
        let list = |f: &dyn Fn(&(&u8, &Verdict)) -> String| {
            self.uses
                .iter()
                .map(|u| f(&u))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let reference = list(&|(n, _)| format!("{n:02}"));
        let yours = list(&|(n, v)| format!("{n:02} ({})", v.text()));
        let here = match grade.verdict {
            Verdict::Passed => "passes",
            Verdict::DoesNotBuild => "does not build",
            _ => "fails",
        };
        let there = match self.verdict {
            Verdict::Passed => "it passes".to_owned(),
            Verdict::DoesNotBuild | Verdict::Blocked => "it does not build".to_owned(),
            Verdict::NotJudged => "it could not be judged".to_owned(),
            _ => format!("it fails {}", self.failing.join(", ")),
        };
        format!(
            "{} {here} over the reference {reference}; over your {yours} {there}",
            grade.title
        )
    }
}

/// Which stages to look at again over the learner's own earlier stages: those judged
/// over the references (or not building there) that use an earlier stage judged in this
/// run which did not pass on its own; the learner's own verdicts of the stages each uses.
pub fn to_revisit(
    grades: &[StageGrade],
    uses: &BTreeMap<u8, BTreeSet<u8>>,
) -> Vec<(u8, BTreeMap<u8, Verdict>)> {
    let own: BTreeMap<u8, Verdict> = grades.iter().map(|g| (g.stage, g.verdict)).collect();
    grades
        .iter()
        .filter(|g| {
            matches!(
                g.verdict,
                Verdict::Passed | Verdict::Failed | Verdict::DoesNotBuild
            )
        })
        .filter_map(|g| {
            let used: BTreeMap<u8, Verdict> = uses
                .get(&g.stage)?
                .iter()
                .filter_map(|n| own.get(n).map(|v| (*n, *v)))
                .collect();
            let suspect = used.values().any(|v| *v != Verdict::Passed);
            // A stage that does not build over the references may use something only
            // the learner's own earlier stages have: worth telling, whatever they scored.
            let unbuilt = g.verdict == Verdict::DoesNotBuild && !used.is_empty();
            (suspect || unbuilt).then_some((g.stage, used))
        })
        .collect()
}

/// Builds and judges the stages `to_revisit` names over the learner's own earlier
/// stages (the pipeline's workspace holds the submission over the pristine tree), and
/// records how each came out in its grade. Nothing here changes a score.
///
/// # Errors
/// When cargo cannot be run at all.
pub fn revisit(
    pipeline: &Pipeline<'_>,
    grades: &mut [StageGrade],
    revisit: Vec<(u8, BTreeMap<u8, Verdict>)>,
    seed: u64,
    limits: Limits,
    progress: &dyn Fn(&str),
) -> Result<()> {
    let selected: Vec<&'static StageInfo> = revisit
        .iter()
        .filter_map(|(n, _)| stages::get(*n))
        .collect();
    let on_step = |step: crate::cli::pipeline::Step<'_>| {
        if let crate::cli::pipeline::Step::Judging(stage) = step {
            progress(&format!(
                "{}: judging over your own earlier stages",
                stages::title(stage.number)
            ));
        }
    };
    let uses: BTreeMap<u8, BTreeMap<u8, Verdict>> = revisit.into_iter().collect();
    for run in pipeline.ladder(&selected, seed, None, limits, Batch::OneByOne, &on_step) {
        let run = run?;
        let number = run.stage.number;
        let (verdict, failing) = match &run.outcome {
            StageOutcome::Judged(report) => {
                let failing: Vec<String> = report
                    .checks
                    .iter()
                    .filter(|c| c.judged != c.planned || c.first_failure.is_some())
                    .map(|c| match &c.first_failure {
                        Some(f) => format!("`{}` ({})", c.name, f.fault.kind()),
                        None => format!("`{}` (not judged)", c.name),
                    })
                    .collect();
                let verdict = if failing.is_empty() {
                    Verdict::Passed
                } else {
                    Verdict::Failed
                };
                (verdict, failing)
            }
            StageOutcome::DoesNotBuild(_) | StageOutcome::Blocked(_) => {
                (Verdict::DoesNotBuild, Vec::new())
            }
            StageOutcome::Undriven(_) | StageOutcome::Ungraded => (Verdict::NotJudged, Vec::new()),
        };
        if let Some(grade) = grades.iter_mut().find(|g| g.stage == number) {
            grade.over_your_stages = Some(OverYourStages {
                uses: uses.get(&number).cloned().unwrap_or_default(),
                verdict,
                failing,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "chains_tests.rs"]
mod tests;
